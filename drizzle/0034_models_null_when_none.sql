-- A run that used no model keeps null in `models` (13 bytes of its row; logs written before keep '{}'), and the models'
-- GIN indexes are built again without their pending list (fastupdate): a search never scans unsorted entries first,
-- and a log costs ~4 bytes of index where the pending list held ~30 until VACUUM (issue 28, bench/REPORT.md
-- log-storage). Building them reads the logs once, holding executions locked meanwhile (docs/operations.md "Upgrades").
DROP INDEX "executions_models_idx";--> statement-breakpoint
DROP INDEX "executions_failures_models_idx";--> statement-breakpoint
ALTER TABLE "executions" ALTER COLUMN "models" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "executions" ALTER COLUMN "models" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "executions_models_idx" ON "executions" USING gin ("models") WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "executions_failures_models_idx" ON "executions" USING gin ("models") WITH (fastupdate=false) WHERE "executions"."level" = 'error';
