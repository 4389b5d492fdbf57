-- The facet counts of a search by place with a price (decision 27) count its first 1,001 matches.
-- Read through products_place_idx, each is a listing read from the table: 11–17 ms at a million
-- listings. This index carries every column that count reads, so it is counted from the index
-- alone (0.45 ms). The place's own column is included too: PostgreSQL reads an expression from an
-- index only when every column the query names is there. products_place_idx stays, small (its
-- entries deduplicated, 7 MB at a million listings against 92 MB here) for the bitmaps and
-- look-ups of a place.
CREATE INDEX "products_place_facets_idx" ON "products" USING btree (furniture_fold("location")) INCLUDE ("location", "state", "moderation", "in_stock", "resale_price", "condition", "category_id");
