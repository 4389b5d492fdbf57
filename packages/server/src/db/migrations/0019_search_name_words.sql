CREATE TABLE "search_name_word_counts" (
	"term" text PRIMARY KEY NOT NULL,
	"listings" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_name_words" (
	"term" text NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"product_id" uuid NOT NULL,
	CONSTRAINT "search_name_words_term_posted_at_product_id_pk" PRIMARY KEY("term","posted_at","product_id")
);
--> statement-breakpoint

-- Every listing under each stem of its name (the stems `to_tsvector('furniture_search',
-- product_name)` holds, which the name index and the ranked tier match), in (posted_at, id) order
-- within a stem, and how many listings each stem names (decision 27): the newest pieces named by
-- two words are found by walking the rarer word's listings newest first and looking up the other.
-- Every listing is kept, whatever its state; the search checks the listing itself. Statement-level
-- triggers, as for the word counts (0017): one delete, one insert and one upsert of the counts per
-- statement, each count once and in key order, however many listings the statement touches.
CREATE FUNCTION search_name_stems(name text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT unnest(tsvector_to_array(to_tsvector('furniture_search'::regconfig, name)));
$$;--> statement-breakpoint

CREATE FUNCTION search_name_words_change(removed products[], added products[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_name_words w
    USING (SELECT search_name_stems(r.product_name) AS term, r.posted_at, r.id FROM unnest(removed) AS r) AS gone
    WHERE (w.term, w.posted_at, w.product_id) = (gone.term, gone.posted_at, gone.id);
  INSERT INTO search_name_words (term, posted_at, product_id)
    SELECT search_name_stems(a.product_name), a.posted_at, a.id FROM unnest(added) AS a;
  INSERT INTO search_name_word_counts AS kept (term, listings)
    SELECT change.term, sum(change.delta)::int
    FROM (
      SELECT search_name_stems(r.product_name) AS term, -1 AS delta FROM unnest(removed) AS r
      UNION ALL
      SELECT search_name_stems(a.product_name), 1 FROM unnest(added) AS a
    ) AS change
    GROUP BY change.term
    HAVING sum(change.delta) <> 0
    ORDER BY change.term
    ON CONFLICT (term) DO UPDATE SET listings = kept.listings + excluded.listings;
$$;--> statement-breakpoint

CREATE FUNCTION products_list_name_words() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed products[];
  added products[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n) INTO added FROM added_rows n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o) INTO removed FROM removed_rows o;
  ELSE
    -- Only the listings whose name or posting time changed.
    SELECT array_agg(o), array_agg(n) INTO removed, added
    FROM removed_rows o JOIN added_rows n ON n.id = o.id
    WHERE (o.product_name, o.posted_at) IS DISTINCT FROM (n.product_name, n.posted_at);
  END IF;
  IF removed IS NOT NULL OR added IS NOT NULL THEN
    PERFORM search_name_words_change(coalesce(removed, '{}'), coalesce(added, '{}'));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE TRIGGER products_search_name_words_insert
  AFTER INSERT ON products REFERENCING NEW TABLE AS added_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_list_name_words();--> statement-breakpoint

CREATE TRIGGER products_search_name_words_update
  AFTER UPDATE ON products REFERENCING OLD TABLE AS removed_rows NEW TABLE AS added_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_list_name_words();--> statement-breakpoint

CREATE TRIGGER products_search_name_words_delete
  AFTER DELETE ON products REFERENCING OLD TABLE AS removed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_list_name_words();--> statement-breakpoint

-- Every listing afresh: existing ones here, and a bulk load (the catalogue seed) that leaves the
-- insert trigger off while it inserts. The rows go in in key order, so the index is built compact.
CREATE FUNCTION search_name_words_rebuild() RETURNS void LANGUAGE sql AS $$
  TRUNCATE search_name_words, search_name_word_counts;
  INSERT INTO search_name_words (term, posted_at, product_id)
    SELECT search_name_stems(product_name), posted_at, id FROM products
    ORDER BY 1, 2, 3;
  INSERT INTO search_name_word_counts (term, listings)
    SELECT term, count(*)::int FROM search_name_words GROUP BY term;
$$;--> statement-breakpoint

SELECT search_name_words_rebuild();--> statement-breakpoint
ANALYZE search_name_words;
