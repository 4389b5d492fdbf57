-- Words in a town (decision 27): "sofa" or "walnut dresser" in Dhanmondi. PostgreSQL ANDed the
-- words' posting lists with every listing of the place: 20–35 ms at a million listings for the
-- facets, and 80–110 ms for a later page, against 0.2–0.5 ms at 10,000. Here each stem of a
-- listing's search document is indexed under its place too, as one lexeme: the folded place, a
-- space, the stem. A stem holds no space, so the last space ends the place. The words of a search
-- in a place are then one short posting list each, as long as the place's share of the word's.
CREATE FUNCTION products_place_words(place text, document tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array_to_tsvector(array(SELECT place || ' ' || lexeme FROM unnest(tsvector_to_array(document)) AS lexeme)) $$;--> statement-breakpoint
CREATE INDEX "products_place_words_idx" ON "products" USING gin (products_place_words(furniture_fold("location"), "search_vector"));
