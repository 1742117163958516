ALTER TABLE "executions" DROP CONSTRAINT "executions_pkey";--> statement-breakpoint
DROP INDEX "executions_execution_id_idx";--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_id_started_at_pk" PRIMARY KEY("id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "executions_execution_id_idx" ON "executions" USING btree ("execution_id","started_at");
