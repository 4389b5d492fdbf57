CREATE TABLE "search_document_words" (
	"term" text NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	"product_id" uuid NOT NULL,
	CONSTRAINT "search_document_words_term_posted_at_product_id_pk" PRIMARY KEY("term","posted_at","product_id")
);
--> statement-breakpoint

-- Every listing under each stem of its search document (the lexemes of `search_vector`, which a
-- search's words match anywhere), in (posted_at, id) order within a stem (decision 31): the
-- matches of several words newest first are found by walking the rarest word's listings and
-- looking up the others, instead of testing every listing's document newest first. Every listing
-- is kept, whatever its state; the search checks the listing itself. How many listings hold each
-- stem is already kept by the word counts (0017). The name words' statement-level triggers (0019)
-- keep it too: one delete and one insert per statement, however many listings it touches.
CREATE FUNCTION search_document_words_change(removed products[], added products[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_document_words w
    USING (SELECT unnest(tsvector_to_array(r.search_vector)) AS term, r.posted_at, r.id FROM unnest(removed) AS r) AS gone
    WHERE (w.term, w.posted_at, w.product_id) = (gone.term, gone.posted_at, gone.id);
  INSERT INTO search_document_words (term, posted_at, product_id)
    SELECT unnest(tsvector_to_array(a.search_vector)), a.posted_at, a.id FROM unnest(added) AS a;
$$;--> statement-breakpoint

-- Listings cannot be written while the list is built, so that none is left out of it; they can
-- still be read. (The triggers are swapped at the end, so the lock that keeps readers out too is
-- held only for the rest of the transaction.)
LOCK TABLE products IN SHARE MODE;--> statement-breakpoint

-- Every listing afresh: existing ones here, and a bulk load (the catalogue seed) that leaves the
-- insert trigger off while it inserts. The rows go in in key order, so the index is built compact.
CREATE FUNCTION search_document_words_rebuild() RETURNS void LANGUAGE sql AS $$
  TRUNCATE search_document_words;
  INSERT INTO search_document_words (term, posted_at, product_id)
    SELECT unnest(tsvector_to_array(search_vector)), posted_at, id FROM products
    ORDER BY 1, 2, 3;
$$;--> statement-breakpoint

SELECT search_document_words_rebuild();--> statement-breakpoint

-- 0019's triggers kept the name words' list; one trigger function now keeps both lists, with one
-- pass over a statement's rows.
DROP TRIGGER products_search_name_words_insert ON products;--> statement-breakpoint
DROP TRIGGER products_search_name_words_update ON products;--> statement-breakpoint
DROP TRIGGER products_search_name_words_delete ON products;--> statement-breakpoint
DROP FUNCTION products_list_name_words();--> statement-breakpoint

CREATE FUNCTION products_list_words() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  names_removed products[];
  names_added products[];
  documents_removed products[];
  documents_added products[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n) INTO names_added FROM added_rows n;
    documents_added := names_added;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o) INTO names_removed FROM removed_rows o;
    documents_removed := names_removed;
  ELSE
    -- Only the listings whose name, or whose document (its name, category, place or description),
    -- or whose posting time changed.
    SELECT array_agg(o) FILTER (WHERE (o.product_name, o.posted_at) IS DISTINCT FROM (n.product_name, n.posted_at)),
           array_agg(n) FILTER (WHERE (o.product_name, o.posted_at) IS DISTINCT FROM (n.product_name, n.posted_at)),
           array_agg(o) FILTER (WHERE (o.search_vector, o.posted_at) IS DISTINCT FROM (n.search_vector, n.posted_at)),
           array_agg(n) FILTER (WHERE (o.search_vector, o.posted_at) IS DISTINCT FROM (n.search_vector, n.posted_at))
      INTO names_removed, names_added, documents_removed, documents_added
    FROM removed_rows o JOIN added_rows n ON n.id = o.id;
  END IF;
  IF names_removed IS NOT NULL OR names_added IS NOT NULL THEN
    PERFORM search_name_words_change(coalesce(names_removed, '{}'), coalesce(names_added, '{}'));
  END IF;
  IF documents_removed IS NOT NULL OR documents_added IS NOT NULL THEN
    PERFORM search_document_words_change(coalesce(documents_removed, '{}'), coalesce(documents_added, '{}'));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE TRIGGER products_search_words_insert
  AFTER INSERT ON products REFERENCING NEW TABLE AS added_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_list_words();--> statement-breakpoint

CREATE TRIGGER products_search_words_update
  AFTER UPDATE ON products REFERENCING OLD TABLE AS removed_rows NEW TABLE AS added_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_list_words();--> statement-breakpoint

CREATE TRIGGER products_search_words_delete
  AFTER DELETE ON products REFERENCING OLD TABLE AS removed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION products_list_words();--> statement-breakpoint

ANALYZE search_document_words;
