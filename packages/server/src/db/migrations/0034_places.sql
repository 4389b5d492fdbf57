-- Places and distance (decision 41): the towns of GeoNames (loaded by src/db/places-gazetteer.ts
-- when the table is empty), each listing's place and rounded point, and the earthdistance index
-- search by distance reads.
CREATE EXTENSION IF NOT EXISTS cube;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS earthdistance;--> statement-breakpoint
CREATE TABLE "places" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"region" text NOT NULL,
	"country" text NOT NULL,
	"lat" double precision NOT NULL,
	"lon" double precision NOT NULL,
	"population" integer NOT NULL,
	"folded_name" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "place_id" integer;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "lat" double precision;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "lon" double precision;--> statement-breakpoint
CREATE INDEX "places_prefix_idx" ON "places" USING btree ("folded_name" text_pattern_ops,"population" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "places_population_idx" ON "places" USING btree ("population" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "places_trigram_idx" ON "places" USING gin ("folded_name" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_earth_idx" ON "products" USING gist (ll_to_earth("lat", "lon")) WHERE "products"."lat" is not null;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_point_both_or_none" CHECK (("products"."lat" is null) = ("products"."lon" is null));--> statement-breakpoint

-- The place a free-text location stands for: the best known town named exactly by the text or by
-- one of its comma-separated parts ("Gulshan, Dhaka"), else the best known one closest in spelling.
CREATE FUNCTION furniture_place_of(location text) RETURNS integer
  LANGUAGE sql STABLE PARALLEL SAFE STRICT
  AS $$
    SELECT coalesce(
      (SELECT p.id FROM unnest(string_to_array(location, ',')) AS part(name)
         JOIN places p ON p.folded_name = furniture_fold(btrim(part.name))
       ORDER BY p.population DESC, p.id LIMIT 1),
      (SELECT p.id FROM places p
       WHERE p.folded_name % furniture_fold(btrim(location))
         AND similarity(p.folded_name, furniture_fold(btrim(location))) >= 0.5
       ORDER BY similarity(p.folded_name, furniture_fold(btrim(location))) DESC, p.population DESC, p.id LIMIT 1))
  $$;--> statement-breakpoint

-- A listing's point is its place's, rounded to about 1 km (none without a place). A location written without a place
-- (or changed while the place stays) is resolved to one.
CREATE FUNCTION products_set_place() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.place_id IS NULL
     OR TG_OP = 'UPDATE' AND NEW.location IS DISTINCT FROM OLD.location AND NEW.place_id IS NOT DISTINCT FROM OLD.place_id THEN
    NEW.place_id := furniture_place_of(NEW.location);
  END IF;
  SELECT round(p.lat::numeric, 2), round(p.lon::numeric, 2) INTO NEW.lat, NEW.lon FROM places p WHERE p.id = NEW.place_id;
  RETURN NEW;
END $$;--> statement-breakpoint

CREATE TRIGGER products_place
  BEFORE INSERT OR UPDATE OF location, place_id ON products
  FOR EACH ROW EXECUTE FUNCTION products_set_place();
