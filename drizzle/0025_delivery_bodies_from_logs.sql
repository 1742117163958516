ALTER TABLE "deliveries" ALTER COLUMN "body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "envelope" text;