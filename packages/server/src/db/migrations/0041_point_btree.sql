-- A search near a point reads the listings' latitude and longitude from a B-tree (decision 53), in
-- place of earthdistance's GiST index: PostgreSQL estimates how many listings a range of latitudes
-- and longitudes holds from their histograms, while it takes any cube containment for 0.1 % of the
-- table, and so started a dense city's search from the box instead of from its words.
DROP INDEX IF EXISTS "products_earth_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "products_point_idx" ON "products" USING btree ("lat","lon") WHERE "products"."lat" is not null;--> statement-breakpoint
-- A page nearest first reads the places within the circle, nearest first, and each place's listings in id order.
CREATE INDEX IF NOT EXISTS "places_point_idx" ON "places" USING btree ("lat","lon");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "products_place_id_idx" ON "products" USING btree ("place_id","id") WHERE "products"."place_id" is not null;
