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
-- one-word search, exact without reading the listings. Each write moves its listing's stems
-- from the old key to the new in one statement, in key order, so two writes never wait on each
-- other's rows in opposite orders.
CREATE FUNCTION products_count_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_word_counts AS kept (term, category_id, condition, in_stock, listings)
  SELECT change.term, change.category_id, change.condition, change.in_stock, sum(change.delta)::int
  FROM (
    SELECT unnest(tsvector_to_array(OLD.search_vector)) AS term, OLD.category_id AS category_id,
           OLD.condition AS condition, OLD.in_stock AS in_stock, -1 AS delta
    WHERE TG_OP <> 'INSERT' AND OLD.state IN ('available', 'reserved', 'sold') AND OLD.moderation IS NULL
    UNION ALL
    SELECT unnest(tsvector_to_array(NEW.search_vector)), NEW.category_id, NEW.condition, NEW.in_stock, 1
    WHERE TG_OP <> 'DELETE' AND NEW.state IN ('available', 'reserved', 'sold') AND NEW.moderation IS NULL
  ) AS change
  GROUP BY change.term, change.category_id, change.condition, change.in_stock
  HAVING sum(change.delta) <> 0
  ORDER BY change.term, change.category_id, change.condition, change.in_stock
  ON CONFLICT (term, category_id, condition, in_stock) DO UPDATE SET listings = kept.listings + excluded.listings;
  RETURN NULL;
END $$;--> statement-breakpoint

-- search_vector is set by a BEFORE trigger, so an edit never names it: the columns it is made of do.
CREATE TRIGGER products_search_word_counts
  AFTER INSERT OR DELETE OR UPDATE OF product_name, category_id, location, description, condition, in_stock, state, moderation
  ON products FOR EACH ROW EXECUTE FUNCTION products_count_search_words();--> statement-breakpoint

-- Every count afresh from the listings: existing rows here, and a bulk load (the catalogue seed)
-- that leaves the trigger off while it inserts.
CREATE FUNCTION search_word_counts_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_word_counts;
  INSERT INTO search_word_counts (term, category_id, condition, in_stock, listings)
    SELECT term, category_id, condition, in_stock, count(*)::int
    FROM products CROSS JOIN LATERAL unnest(tsvector_to_array(search_vector)) AS term
    WHERE state IN ('available', 'reserved', 'sold') AND moderation IS NULL
    GROUP BY term, category_id, condition, in_stock;
$$;--> statement-breakpoint

SELECT search_word_counts_recount();
