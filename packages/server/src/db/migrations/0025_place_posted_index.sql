-- A search in one place (decision 27): "oak" or nothing at all in Dhanmondi, newest first. The
-- place's index held the place alone, so its pages walked the whole catalogue newest first (or a
-- word's list) and dropped the listings of other places, 97 % of them for a town. With the posting
-- order in the key, a page walks the place's own listings newest first.
DROP INDEX "products_place_idx";--> statement-breakpoint
CREATE INDEX "products_place_posted_idx" ON "products" USING btree (furniture_fold("location"),"posted_at","id");
