ALTER TABLE "executions" ADD COLUMN "rerun_of" text;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "rerun_from_block" text;--> statement-breakpoint
CREATE INDEX "executions_rerun_of_idx" ON "executions" USING btree ("rerun_of","started_at") WHERE "executions"."rerun_of" is not null;