CREATE TABLE "flow_throttle_starts" (
	"throttle_key" text NOT NULL,
	"slot" integer NOT NULL,
	"workflow_id" text NOT NULL,
	"execution_id" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "flow_throttle_starts_throttle_key_slot_pk" PRIMARY KEY("throttle_key","slot")
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "debounce_key" text;--> statement-breakpoint
ALTER TABLE "flow_throttle_starts" ADD CONSTRAINT "flow_throttle_starts_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flow_throttle_starts_started_idx" ON "flow_throttle_starts" USING btree ("started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_debounce_idx" ON "jobs" USING btree ("debounce_key") WHERE "jobs"."status" = 'queued' and "jobs"."debounce_key" is not null;