-- Catalogue search (decision 12): an unaccented English text search configuration, the search
-- document of each product kept by a trigger, the vocabulary of stems for typo correction, the
-- sale time the price guide weighs by, and the GIN indexes.
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint

-- English stemming after accents are removed, so "Café" and "cafe" are one word.
CREATE TEXT SEARCH CONFIGURATION furniture_search (COPY = pg_catalog.english);--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION furniture_search
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;--> statement-breakpoint

-- unaccent() is only STABLE (its dictionary could change); naming the dictionary makes a wrapper
-- that expression indexes may use.
CREATE FUNCTION furniture_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$;--> statement-breakpoint

CREATE FUNCTION products_search_document(product_name text, category_name text, location text, description text)
  RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT setweight(to_tsvector('furniture_search', coalesce(product_name, '')), 'A')
        || setweight(to_tsvector('furniture_search', coalesce(category_name, '')), 'B')
        || setweight(to_tsvector('furniture_search', coalesce(location, '')), 'B')
        || setweight(to_tsvector('furniture_search', coalesce(description, '')), 'C')
  $$;--> statement-breakpoint

CREATE FUNCTION products_set_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector := products_search_document(
    NEW.product_name,
    (SELECT category_name FROM categories WHERE id = NEW.category_id),
    NEW.location,
    NEW.description);
  RETURN NEW;
END $$;--> statement-breakpoint

CREATE TRIGGER products_search_vector
  BEFORE INSERT OR UPDATE OF product_name, category_id, location, description ON products
  FOR EACH ROW EXECUTE FUNCTION products_set_search_vector();--> statement-breakpoint

-- A category's new name is part of its products' documents.
CREATE FUNCTION categories_refresh_search_vectors() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products SET category_id = category_id WHERE category_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE TRIGGER categories_search_vectors
  AFTER UPDATE OF category_name ON categories
  FOR EACH ROW WHEN (OLD.category_name IS DISTINCT FROM NEW.category_name)
  EXECUTE FUNCTION categories_refresh_search_vectors();--> statement-breakpoint

-- Every stem that appears in a product joins the vocabulary typos are corrected against.
CREATE FUNCTION products_collect_search_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_terms (term)
    SELECT DISTINCT lexeme FROM unnest(tsvector_to_array(NEW.search_vector)) AS lexeme
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE TRIGGER products_search_terms
  AFTER INSERT OR UPDATE OF search_vector ON products
  FOR EACH ROW EXECUTE FUNCTION products_collect_search_terms();--> statement-breakpoint

-- The moment a product is sold, for the price guide's weighting by recency.
CREATE FUNCTION products_set_sold_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.in_stock = 'sold' AND (TG_OP = 'INSERT' OR OLD.in_stock IS DISTINCT FROM 'sold') THEN
    NEW.sold_at := coalesce(NEW.sold_at, now());
  ELSIF NEW.in_stock <> 'sold' THEN
    NEW.sold_at := NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint

CREATE TRIGGER products_sold_at
  BEFORE INSERT OR UPDATE OF in_stock ON products
  FOR EACH ROW EXECUTE FUNCTION products_set_sold_at();--> statement-breakpoint

-- Existing rows: documents, vocabulary, photos (the cover) and the time of past sales.
UPDATE products p SET
  search_vector = products_search_document(p.product_name, c.category_name, p.location, p.description),
  photos = CASE WHEN cardinality(p.photos) = 0 THEN ARRAY[p.product_image] ELSE p.photos END,
  sold_at = CASE WHEN p.in_stock = 'sold' THEN coalesce(
    (SELECT max(created_at) FROM payments WHERE product_id = p.id AND status = 'succeeded'), p.posted_at) END
FROM categories c WHERE c.id = p.category_id;--> statement-breakpoint

CREATE INDEX products_search_vector_idx ON products USING gin (search_vector);--> statement-breakpoint
CREATE INDEX products_location_trgm_idx ON products USING gin (furniture_fold(location) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX search_terms_trgm_idx ON search_terms USING gin (term gin_trgm_ops);
