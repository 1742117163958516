CREATE TABLE "flow_slots" (
	"flow_key" text NOT NULL,
	"slot" integer NOT NULL,
	"workflow_id" text NOT NULL,
	"execution_id" text NOT NULL,
	"runner_id" text NOT NULL,
	"acquired_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flow_slots_flow_key_slot_pk" PRIMARY KEY("flow_key","slot")
);
--> statement-breakpoint
DROP INDEX "jobs_claim_idx";--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "queued_ms" integer;--> statement-breakpoint
ALTER TABLE "executions" ADD COLUMN "flow_control" jsonb;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "priority" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "flow_key" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "flow_limit" integer;--> statement-breakpoint
ALTER TABLE "flow_slots" ADD CONSTRAINT "flow_slots_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "flow_slots_execution_idx" ON "flow_slots" USING btree ("execution_id");--> statement-breakpoint
CREATE INDEX "flow_slots_runner_idx" ON "flow_slots" USING btree ("runner_id");--> statement-breakpoint
CREATE INDEX "jobs_flow_key_idx" ON "jobs" USING btree ("flow_key","status") WHERE "jobs"."status" in ('queued', 'running') and "jobs"."flow_key" is not null;--> statement-breakpoint
CREATE INDEX "jobs_claim_idx" ON "jobs" USING btree ("kind","tenant","priority" DESC NULLS LAST,"run_at") WHERE "jobs"."status" = 'queued';