CREATE TABLE "search_place_counts" (
	"place" text NOT NULL,
	"category_id" uuid NOT NULL,
	"condition" "product_condition" NOT NULL,
	"in_stock" "stock_state" NOT NULL,
	"listings" integer NOT NULL,
	CONSTRAINT "search_place_counts_place_category_id_condition_in_stock_pk" PRIMARY KEY("place","category_id","condition","in_stock")
);
--> statement-breakpoint
ALTER TABLE "search_place_counts" ADD CONSTRAINT "search_place_counts_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint

-- How many publicly visible listings each place holds, by category, condition and stock state
-- (decision 27): the facet counts of a search by place alone, exact without reading the
-- listings. Kept as the word counts are (migration 0017), by the same triggers, which read a
-- statement's transition tables once for both.
ALTER FUNCTION products_count_search_words() RENAME TO products_keep_facet_counts;--> statement-breakpoint
ALTER TRIGGER products_search_word_counts_insert ON products RENAME TO products_facet_counts_insert;--> statement-breakpoint
ALTER TRIGGER products_search_word_counts_update ON products RENAME TO products_facet_counts_update;--> statement-breakpoint
ALTER TRIGGER products_search_word_counts_delete ON products RENAME TO products_facet_counts_delete;--> statement-breakpoint

-- Each kind of count: a statement's listings move from their old keys to their new in one upsert,
-- each key once and in key order. The upserts are written here rather than in SQL functions, which
-- PostgreSQL plans again at every call: in PL/pgSQL each connection plans them once (0.3–0.7 ms a
-- listing's insert for both, against 0.75–2.0 ms through SQL functions).
CREATE OR REPLACE FUNCTION products_keep_facet_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed products[];
  added products[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n) INTO added FROM added_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o) INTO removed FROM removed_rows o;
  ELSE
    -- Only the listings whose words, place, category, condition, stock state or visibility changed.
    SELECT array_agg(o), array_agg(n) INTO removed, added
    FROM removed_rows o JOIN added_rows n ON n.id = o.id
    WHERE (o.search_vector, o.location, o.category_id, o.condition, o.in_stock, o.state, o.moderation)
      IS DISTINCT FROM (n.search_vector, n.location, n.category_id, n.condition, n.in_stock, n.state, n.moderation);
  END IF;
  IF removed IS NULL AND added IS NULL THEN
    RETURN NULL;
  END IF;
  removed := coalesce(removed, '{}');
  added := coalesce(added, '{}');

  INSERT INTO search_word_counts AS kept (term, category_id, condition, in_stock, listings)
  SELECT change.term, change.category_id, change.condition, change.in_stock, sum(change.delta)::int
  FROM (
    SELECT unnest(tsvector_to_array(r.search_vector)) AS term, r.category_id, r.condition, r.in_stock, -1 AS delta
    FROM unnest(removed) AS r
    WHERE r.state IN ('available', 'reserved', 'sold') AND r.moderation IS NULL
    UNION ALL
    SELECT unnest(tsvector_to_array(a.search_vector)), a.category_id, a.condition, a.in_stock, 1
    FROM unnest(added) AS a
    WHERE a.state IN ('available', 'reserved', 'sold') AND a.moderation IS NULL
  ) AS change
  GROUP BY change.term, change.category_id, change.condition, change.in_stock
  HAVING sum(change.delta) <> 0
  ORDER BY change.term, change.category_id, change.condition, change.in_stock
  ON CONFLICT (term, category_id, condition, in_stock) DO UPDATE SET listings = kept.listings + excluded.listings;

  INSERT INTO search_place_counts AS kept (place, category_id, condition, in_stock, listings)
  SELECT change.place, change.category_id, change.condition, change.in_stock, sum(change.delta)::int
  FROM (
    SELECT furniture_fold(r.location) AS place, r.category_id, r.condition, r.in_stock, -1 AS delta
    FROM unnest(removed) AS r
    WHERE r.state IN ('available', 'reserved', 'sold') AND r.moderation IS NULL
    UNION ALL
    SELECT furniture_fold(a.location), a.category_id, a.condition, a.in_stock, 1
    FROM unnest(added) AS a
    WHERE a.state IN ('available', 'reserved', 'sold') AND a.moderation IS NULL
  ) AS change
  GROUP BY change.place, change.category_id, change.condition, change.in_stock
  HAVING sum(change.delta) <> 0
  ORDER BY change.place, change.category_id, change.condition, change.in_stock
  ON CONFLICT (place, category_id, condition, in_stock) DO UPDATE SET listings = kept.listings + excluded.listings;
  RETURN NULL;
END $$;--> statement-breakpoint

DROP FUNCTION search_word_counts_change(products[], products[]);--> statement-breakpoint

-- Every count afresh from the listings: existing rows here, and a bulk load (the catalogue seed)
-- that leaves the triggers off while it inserts.
CREATE FUNCTION search_place_counts_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_place_counts;
  INSERT INTO search_place_counts (place, category_id, condition, in_stock, listings)
    SELECT furniture_fold(location), category_id, condition, in_stock, count(*)::int
    FROM products
    WHERE state IN ('available', 'reserved', 'sold') AND moderation IS NULL
    GROUP BY 1, category_id, condition, in_stock;
$$;--> statement-breakpoint

SELECT search_place_counts_recount();
