CREATE TYPE "public"."appeal_status" AS ENUM('pending', 'granted', 'refused');--> statement-breakpoint
CREATE TABLE "listing_appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"hidden_at" timestamp with time zone NOT NULL,
	"text" text NOT NULL,
	"status" "appeal_status" DEFAULT 'pending' NOT NULL,
	"answer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "moderated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "hidden_by_suspension" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_appeals" ADD CONSTRAINT "listing_appeals_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "listing_appeals_one_per_hiding" ON "listing_appeals" USING btree ("product_id","hidden_at");--> statement-breakpoint
CREATE INDEX "listing_appeals_pending_idx" ON "listing_appeals" USING btree ("created_at") WHERE "listing_appeals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_id","id");--> statement-breakpoint
-- Listings hidden or removed before this migration: their moderation began no later than now, so each can be appealed once.
UPDATE "products" SET "moderated_at" = now() WHERE "moderation" IS NOT NULL;
