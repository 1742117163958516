ALTER TABLE "jobs" ADD COLUMN "tenant" text;--> statement-breakpoint
CREATE INDEX "jobs_claim_idx" ON "jobs" USING btree ("kind","tenant","run_at") WHERE "jobs"."status" = 'queued';