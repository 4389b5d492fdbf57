ALTER TABLE "search_word_counts" ADD COLUMN "named" integer DEFAULT 0 NOT NULL;--> statement-breakpoint

-- Of the listings each stem is counted for, how many hold it in their name (weight A of the
-- document, decision 12): the others hold it only elsewhere, so when no listing holds any of a
-- search's words elsewhere than its name, the third tier of relevance is empty and is not looked
-- for (decision 27). Kept by the same trigger as the counts, from the same unnested words.
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

  -- A word moved from the name to the description changes `named` alone.
  INSERT INTO search_word_counts AS kept (term, category_id, condition, in_stock, listings, named)
  SELECT change.term, change.category_id, change.condition, change.in_stock, sum(change.delta)::int, sum(change.named)::int
  FROM (
    SELECT w.lexeme AS term, r.category_id, r.condition, r.in_stock, -1 AS delta, CASE WHEN 'A' = ANY (w.weights) THEN -1 ELSE 0 END AS named
    FROM unnest(removed) AS r CROSS JOIN LATERAL unnest(r.search_vector) AS w
    WHERE r.state IN ('available', 'reserved', 'sold') AND r.moderation IS NULL
    UNION ALL
    SELECT w.lexeme, a.category_id, a.condition, a.in_stock, 1, CASE WHEN 'A' = ANY (w.weights) THEN 1 ELSE 0 END
    FROM unnest(added) AS a CROSS JOIN LATERAL unnest(a.search_vector) AS w
    WHERE a.state IN ('available', 'reserved', 'sold') AND a.moderation IS NULL
  ) AS change
  GROUP BY change.term, change.category_id, change.condition, change.in_stock
  HAVING sum(change.delta) <> 0 OR sum(change.named) <> 0
  ORDER BY change.term, change.category_id, change.condition, change.in_stock
  ON CONFLICT (term, category_id, condition, in_stock) DO UPDATE SET listings = kept.listings + excluded.listings, named = kept.named + excluded.named;

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

CREATE OR REPLACE FUNCTION search_word_counts_recount() RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_word_counts;
  INSERT INTO search_word_counts (term, category_id, condition, in_stock, listings, named)
    SELECT w.lexeme, category_id, condition, in_stock, count(*)::int, (count(*) FILTER (WHERE 'A' = ANY (w.weights)))::int
    FROM products CROSS JOIN LATERAL unnest(search_vector) AS w
    WHERE state IN ('available', 'reserved', 'sold') AND moderation IS NULL
    GROUP BY w.lexeme, category_id, condition, in_stock;
$$;--> statement-breakpoint

SELECT search_word_counts_recount();
