CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "photos" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "width_cm" numeric(6, 1);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "depth_cm" numeric(6, 1);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "height_cm" numeric(6, 1);--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "footprint_min_cm" numeric GENERATED ALWAYS AS (least(width_cm, depth_cm)) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "footprint_max_cm" numeric GENERATED ALWAYS AS (greatest(width_cm, depth_cm)) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "dim_min_cm" numeric GENERATED ALWAYS AS (least(width_cm, depth_cm, height_cm)) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "dim_mid_cm" numeric GENERATED ALWAYS AS (width_cm + depth_cm + height_cm - least(width_cm, depth_cm, height_cm) - greatest(width_cm, depth_cm, height_cm)) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "years_used" numeric GENERATED ALWAYS AS (case when years_of_used_product ~* 'month' then substring(years_of_used_product from '([0-9]+([.][0-9]+)?)')::numeric / 12 else substring(years_of_used_product from '([0-9]+([.][0-9]+)?)')::numeric end) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sold_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector";--> statement-breakpoint
CREATE INDEX "products_posted_id_idx" ON "products" USING btree ("posted_at","id");--> statement-breakpoint
CREATE INDEX "products_price_id_idx" ON "products" USING btree ("resale_price","id");--> statement-breakpoint
CREATE INDEX "products_category_price_id_idx" ON "products" USING btree ("category_id","resale_price","id");--> statement-breakpoint
CREATE INDEX "products_dim_min_idx" ON "products" USING btree ("dim_min_cm") WHERE "products"."dim_min_cm" is not null;--> statement-breakpoint
CREATE INDEX "products_footprint_idx" ON "products" USING btree ("footprint_max_cm","footprint_min_cm") WHERE "products"."footprint_max_cm" is not null;--> statement-breakpoint
CREATE INDEX "products_category_sold_idx" ON "products" USING btree ("category_id","sold_at" DESC NULLS LAST) WHERE "products"."sold_at" is not null;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_measurements_all_or_none" CHECK (("products"."width_cm" is null) = ("products"."depth_cm" is null) and ("products"."depth_cm" is null) = ("products"."height_cm" is null));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_measurements_positive" CHECK ("products"."width_cm" > 0 and "products"."depth_cm" > 0 and "products"."height_cm" > 0);