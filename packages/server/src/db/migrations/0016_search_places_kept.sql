-- Every place the catalogue contains joins search_places (decision 27), as every stem joins
-- search_terms: a location search is resolved to the places it loosely matches over this small
-- table (its own trigram index), and their products are read from products_place_idx.
CREATE FUNCTION products_collect_search_place() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_places (place) VALUES (furniture_fold(NEW.location)) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE TRIGGER products_search_places
  AFTER INSERT OR UPDATE OF location ON products
  FOR EACH ROW EXECUTE FUNCTION products_collect_search_place();--> statement-breakpoint

INSERT INTO search_places (place)
  SELECT DISTINCT furniture_fold(location) FROM products
  ON CONFLICT DO NOTHING;--> statement-breakpoint

CREATE INDEX search_places_trgm_idx ON search_places USING gin (place gin_trgm_ops);
