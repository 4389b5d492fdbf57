ALTER TYPE "public"."report_target_type" ADD VALUE 'message';--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "removed_at" timestamp with time zone;