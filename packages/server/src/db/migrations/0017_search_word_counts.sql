CREATE TABLE "search_word_counts" (
	"term" text NOT NULL,
	"category_id" uuid NOT NULL,
	"condition" "product_condition" NOT NULL,
	"in_stock" "stock_state" NOT NULL,
	"listings" integer NOT NULL,
	CONSTRAINT "search_word_counts_term_category_id_condition_in_stock_pk" PRIMARY KEY("term","category_id","condition","in_stock")
);
--> statement-breakpoint
ALTER TABLE "search_word_counts" ADD CONSTRAINT "search_word_counts_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint

-- How many publicly visible listings (the condition of publiclyVisible in product-repository.ts)
-- hold each stem, by category, condition and stock state (decision 27): the facet counts of a
-- one-word search, exact without reading the listings. A statement's listings move their stems
-- from the old keys to the new in one upsert, each key once and in key order: a bulk update (a
-- category renamed, a seller suspended) adds to each count once, not once per listing, and two
-- writes never wait on each other's rows in opposite orders.
CREATE FUNCTION search_word_counts_change(removed products[], added products[]) RETURNS void LANGUAGE sql AS $$
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
$$;--> statement-breakpoint

CREATE FUNCTION products_count_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed products[];
  added products[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n) INTO added FROM added_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o) INTO removed FROM removed_rows o;
  ELSE
    -- Only the listings whose words, category, condition, stock state or visibility changed.
    SELECT array_agg(o), array_agg(n) INTO removed, added
    FROM removed_rows o JOIN added_rows n ON n.id = o.id
    WHERE (o.search_vector, o.category_id, o.condition, o.in_stock, o.state, o.moderation)
      IS DISTINCT FROM (n.search_vector, n.category_id, n.condition, n.in_stock, n.state, n.moderation);
  END IF;
  IF removed IS NOT NULL OR added IS NOT NULL THEN
    PERFORM search_word_counts_change(coalesce(removed, '{}'), coalesce(added, '{}'));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE TRIGGER products_search_word_counts_insert
  AFTER INSERT ON products REFERENCING NEW TABLE AS added_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_count_search_words();--> statement-breakpoint

CREATE TRIGGER products_search_word_counts_update
  AFTER UPDATE ON products REFERENCING OLD TABLE AS removed_rows NEW TABLE AS added_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_count_search_words();--> statement-breakpoint

CREATE TRIGGER products_search_word_counts_delete
  AFTER DELETE ON products REFERENCING OLD TABLE AS removed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_count_search_words();--> statement-breakpoint

-- Every count afresh from the listings: existing rows here, and a bulk load (the catalogue seed)
-- that leaves the triggers off while it inserts.
CREATE FUNCTION search_word_counts_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_word_counts;
  INSERT INTO search_word_counts (term, category_id, condition, in_stock, listings)
    SELECT term, category_id, condition, in_stock, count(*)::int
    FROM products CROSS JOIN LATERAL unnest(tsvector_to_array(search_vector)) AS term
    WHERE state IN ('available', 'reserved', 'sold') AND moderation IS NULL
    GROUP BY term, category_id, condition, in_stock;
$$;--> statement-breakpoint

SELECT search_word_counts_recount();
