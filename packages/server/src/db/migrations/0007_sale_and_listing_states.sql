CREATE TYPE "public"."listing_state" AS ENUM('available', 'reserved', 'sold', 'withdrawn', 'expired');--> statement-breakpoint
CREATE TYPE "public"."booking_status" AS ENUM('open', 'accepted', 'declined', 'cancelled', 'paid', 'closed');--> statement-breakpoint
CREATE TABLE "product_views" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"views" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "bookings_product_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "state" "listing_state" DEFAULT 'available' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "price_history" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "expires_at" timestamp with time zone DEFAULT now() + interval '60 days' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "renewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "status" "booking_status" DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "product_views" ADD CONSTRAINT "product_views_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookings_product_created_idx" ON "bookings" USING btree ("product_id","created_at");--> statement-breakpoint

-- Existing rows: sold products are in the sold state, paid bookings are paid.
UPDATE "products" SET "state" = 'sold' WHERE "in_stock" = 'sold';--> statement-breakpoint
UPDATE "bookings" SET "status" = 'paid' WHERE "payment_status" = 'paid';--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_in_stock_follows_state" CHECK (("products"."in_stock" = 'available') = ("products"."state" = 'available'));--> statement-breakpoint

-- A product is sold when its state says so (reserved, withdrawn and expired ones are not sales).
CREATE OR REPLACE FUNCTION products_set_sold_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.state = 'sold' AND (TG_OP = 'INSERT' OR OLD.state IS DISTINCT FROM 'sold') THEN
    NEW.sold_at := coalesce(NEW.sold_at, now());
  ELSIF NEW.state <> 'sold' THEN
    NEW.sold_at := NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
DROP TRIGGER products_sold_at ON products;--> statement-breakpoint
CREATE TRIGGER products_sold_at
  BEFORE INSERT OR UPDATE OF in_stock, state ON products
  FOR EACH ROW EXECUTE FUNCTION products_set_sold_at();--> statement-breakpoint

-- Existing available listings get their expiry and reminder jobs (src/sales/listing-expiry.ts).
-- On a new database the job queue is installed after these migrations, and there are no listings.
DO $$
BEGIN
  IF to_regnamespace('graphile_worker') IS NOT NULL THEN
    PERFORM graphile_worker.add_job('sales.expire-listing',
        json_build_object('productId', id, 'expiresAt', to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
        run_at => expires_at, max_attempts => 13, job_key => 'listing-expiry:' || id),
      graphile_worker.add_job('sales.remind-listing-expiry',
        json_build_object('productId', id, 'expiresAt', to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
        run_at => expires_at - interval '7 days', max_attempts => 13, job_key => 'listing-expiry-reminder:' || id)
    FROM products WHERE state = 'available';
  END IF;
END $$;
