-- The vocabulary typos are corrected against (decision 12) missed the words of an edited listing:
-- its trigger fired on `UPDATE OF search_vector`, a column no statement names (the BEFORE trigger
-- products_search_vector sets it), so only inserts reached it. It now fires on the columns the
-- search document is made of, when the document changed.
DROP TRIGGER products_search_terms ON products;--> statement-breakpoint

CREATE TRIGGER products_search_terms
  AFTER INSERT ON products
  FOR EACH ROW EXECUTE FUNCTION products_collect_search_terms();--> statement-breakpoint

CREATE TRIGGER products_search_terms_on_edit
  AFTER UPDATE OF product_name, category_id, location, description ON products
  FOR EACH ROW WHEN (OLD.search_vector IS DISTINCT FROM NEW.search_vector)
  EXECUTE FUNCTION products_collect_search_terms();--> statement-breakpoint

-- The words of listings edited before now.
INSERT INTO search_terms (term)
  SELECT DISTINCT lexeme FROM products, unnest(tsvector_to_array(search_vector)) AS lexeme
  ON CONFLICT DO NOTHING;
