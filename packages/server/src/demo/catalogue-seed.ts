import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { demoPictureUrl } from './demo-data.ts';

/**
 * A large, realistic catalogue for measuring search at scale: furniture categories, a seller for
 * every 200 products (a third of them verified), and products whose names, descriptions, places,
 * measurements, prices, ages and sales are drawn from furniture vocabulary. Rows are generated
 * inside PostgreSQL (generate_series), in batches, not sent one by one; the same count always
 * gives the same catalogue.
 */

interface Kind {
  category: string;
  /** Names of the pieces of this kind. */
  types: string[];
  /** Typical width, depth and height in cm. */
  size: [number, number, number];
  /** Typical new price in dollars. */
  price: number;
  picture: string;
}

const kinds: Kind[] = [
  { category: 'Sofas', types: ['sofa', 'couch', 'loveseat', 'sectional sofa', 'sofa bed', 'chesterfield'], size: [210, 90, 85], price: 900, picture: 'sofa' },
  { category: 'Armchairs', types: ['armchair', 'recliner', 'wingback chair', 'lounge chair', 'rocking chair'], size: [85, 85, 100], price: 450, picture: 'armchair' },
  { category: 'Beds', types: ['double bed', 'single bed', 'bunk bed', 'king bed', 'daybed', 'bed frame'], size: [160, 210, 110], price: 800, picture: 'bed' },
  { category: 'Tables', types: ['dining table', 'coffee table', 'side table', 'console table', 'extending table'], size: [160, 90, 75], price: 600, picture: 'table' },
  { category: 'Chairs', types: ['dining chair', 'stool', 'bar stool', 'folding chair', 'bench'], size: [45, 50, 90], price: 150, picture: 'chair' },
  { category: 'Desks', types: ['desk', 'writing desk', 'standing desk', 'computer desk', 'bureau'], size: [140, 70, 75], price: 400, picture: 'desk' },
  { category: 'Wardrobes', types: ['wardrobe', 'armoire', 'closet', 'sliding wardrobe'], size: [150, 60, 200], price: 1000, picture: 'wardrobe' },
  { category: 'Dressers', types: ['dresser', 'chest of drawers', 'sideboard', 'cabinet', 'tallboy', 'nightstand'], size: [120, 50, 90], price: 500, picture: 'dresser' },
  { category: 'Bookshelves', types: ['bookshelf', 'bookcase', 'shelving unit', 'display cabinet', 'ladder shelf'], size: [90, 35, 190], price: 300, picture: 'bookshelf' },
  { category: 'Lamps', types: ['floor lamp', 'table lamp', 'desk lamp', 'pendant lamp', 'reading lamp'], size: [40, 40, 160], price: 120, picture: 'lamp' },
  { category: 'Outdoor', types: ['garden bench', 'patio table', 'deck chair', 'hammock', 'sun lounger'], size: [150, 70, 80], price: 350, picture: 'chair' },
  { category: 'Kids', types: ['cot', 'high chair', 'toy chest', 'kids desk', 'changing table'], size: [120, 65, 90], price: 250, picture: 'bed' },
];

const materials = ['oak', 'walnut', 'teak', 'pine', 'mahogany', 'birch', 'bamboo', 'rattan', 'leather', 'velvet', 'linen', 'steel', 'glass', 'marble', 'cherry wood', 'beech', 'rosewood', 'wicker'];
const styles = ['vintage', 'mid-century', 'modern', 'Scandinavian', 'rustic', 'antique', 'industrial', 'classic', 'minimalist', 'handmade', 'art deco', 'farmhouse', 'compact', 'large', 'elegant', 'sturdy', 'Café', 'colonial'];
const details = [
  'Barely used and kept in a smoke-free home.',
  'A few light scratches on the top, otherwise sound.',
  'Solid construction, no wobble.',
  'Drawers run smoothly on metal runners.',
  'Cushions recently cleaned.',
  'Some fading from sunlight on one side.',
  'Comes apart for easy transport.',
  'Original hardware, brass handles.',
  'Refinished last year with natural oil.',
  'Minor marks consistent with age.',
  'Pet-free and child-free home.',
  'Needs two people to carry.',
  'Bought from a well-known furniture shop.',
  'Moving abroad, must go this month.',
  'Fits well in a small flat.',
  'Upholstery is stain-free.',
];
const places = [
  'Gulshan, Dhaka', 'Banani, Dhaka', 'Dhanmondi, Dhaka', 'Uttara, Dhaka', 'Mirpur, Dhaka', 'Mohammadpur, Dhaka', 'Bashundhara, Dhaka',
  'Motijheel, Dhaka', 'Old Dhaka', 'Agrabad, Chattogram', 'Nasirabad, Chattogram', 'Khulshi, Chattogram', 'Zindabazar, Sylhet',
  'Sonadanga, Khulna', 'Shaheb Bazar, Rajshahi', 'Cumilla', 'Narayanganj', 'Gazipur', 'Mymensingh', 'Barishal', 'Rangpur', "Cox's Bazar",
  'Bogura', 'Jessore', 'Tangail', 'Savar', 'Tongi', 'Keraniganj', 'Feni', 'Noakhali',
];
const firstNames = ['Rahim', 'Karim', 'Nadia', 'Farhana', 'Tanvir', 'Sadia', 'Arif', 'Nusrat', 'Imran', 'Mitu', 'Sabbir', 'Ayesha', 'Rafiq', 'Shirin', 'Hasan', 'Tania', 'Jamal', 'Rupa', 'Kamal', 'Laila'];
const lastNames = ['Uddin', 'Rahman', 'Islam', 'Hossain', 'Ahmed', 'Chowdhury', 'Khan', 'Akter', 'Sarkar', 'Begum', 'Das', 'Roy', 'Haque', 'Kabir', 'Miah'];

const BATCH = 100_000;
const PRODUCTS_PER_SELLER = 200;
/** From this many products on, indexes are built after the rows rather than kept up row by row. */
const INDEX_REBUILD_FROM = 100_000;

const textArray = (values: string[]) => sql`${`{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;

export interface SeedOptions {
  products: number;
  publicUrl: string;
  log?: (line: string) => void;
}

/** Every word the generated text uses, for the search vocabulary (see below). */
function vocabulary(): string {
  return [
    ...kinds.flatMap((kind) => [kind.category, ...kind.types]),
    ...materials,
    ...styles,
    ...details,
    ...places,
    'A in month months year years',
    ...Array.from({ length: 16 }, (_, index) => String(index)),
  ].join(' ');
}

/** Seeds the database at `connectionString` (migrated) over one connection, so its temporary tables stay visible. */
export async function seedCatalogue(connectionString: string, options: SeedOptions) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await seedOverConnection(drizzle(client), options);
  } finally {
    await client.end();
  }
}

async function seedOverConnection(db: NodePgDatabase, { products: total, publicUrl, log = () => {} }: SeedOptions) {
  const started = performance.now();
  const runId = `${Date.now().toString(36)}`;

  // Categories (existing ones of the same name are reused) and the kinds of piece in each.
  await db.execute(sql`create temporary table seed_kinds (kind_no int, category_name text, type text, width int, depth int, height int, price int, picture text)`);
  let kindNo = 0;
  for (const kind of kinds) {
    await db.execute(sql`
      insert into categories (category_name, description, image)
      values (${kind.category}, ${`${kind.category} from homes near you`}, ${demoPictureUrl(publicUrl, `${kind.picture}-1`)})
      on conflict do nothing`);
    for (const type of kind.types) {
      kindNo += 1;
      await db.execute(sql`insert into seed_kinds values (${kindNo}, ${kind.category}, ${type}, ${kind.size[0]}, ${kind.size[1]}, ${kind.size[2]}, ${kind.price}, ${kind.picture})`);
    }
  }
  const kindCount = kindNo;

  const sellerCount = Math.max(20, Math.ceil(total / PRODUCTS_PER_SELLER));
  await db.execute(sql`
    insert into users (name, email, role, capabilities, verified, image, created_at)
    select (${textArray(firstNames)})[1 + i % ${firstNames.length}] || ' ' || (${textArray(lastNames)})[1 + (i / ${firstNames.length}) % ${lastNames.length}],
           'seller-' || ${runId} || '-' || i || '@catalogue.example', 'seller', '{buy,sell}', i % 3 = 0,
           ${demoPictureUrl(publicUrl, 'armchair-2')}, now() - make_interval(days => 400 + i % 1500)
    from generate_series(1, ${sellerCount}) as i`);
  await db.execute(sql`create temporary table seed_sellers as
    select row_number() over (order by id) as seller_no, id from users where email like ${`seller-${runId}-%`}`);
  log(`${kindCount} kinds of piece in ${kinds.length} categories, ${sellerCount} sellers`);

  // A large load fills the table first and builds its secondary indexes after, in one pass each:
  // keeping a million rows' GIN and B-tree entries current row by row takes several times longer.
  const rebuildIndexes = total >= INDEX_REBUILD_FROM ? await dropSecondaryIndexes(db) : async () => undefined;
  try {
    await insertProducts(db, { total, kindCount, sellerCount, publicUrl }, (done) =>
      log(`${done.toLocaleString('en-US')} products (${((performance.now() - started) / 1000).toFixed(0)} s)`),
    );
  } finally {
    await rebuildIndexes();
  }
  await db.execute(sql`
    insert into search_terms (term)
    select unnest(tsvector_to_array(to_tsvector('furniture_search', ${vocabulary()})))
    on conflict do nothing`);
  await db.execute(sql`insert into search_places (place) select furniture_fold(unnest(${textArray(places)})) on conflict do nothing`);
  // The word and place counts of facets and the lists of name and document words, made once over
  // every listing instead of word by word per row.
  await db.execute(sql`select search_word_counts_recount()`);
  await db.execute(sql`select search_place_counts_recount()`);
  await db.execute(sql`select search_name_words_rebuild()`);
  await db.execute(sql`select search_document_words_rebuild()`);
  await db.execute(sql`drop table seed_kinds, seed_sellers`);
  log(`Indexes and vocabulary ready (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  // Fresh statistics and visibility map, so plans and index-only scans are as in a settled database.
  await db.execute(sql`vacuum analyze products, search_name_words, search_document_words`);
  await db.execute(sql`analyze`);
  log(`Done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * Drops the products table's indexes but its primary key and unique ones, and answers a function
 * that builds them again from their own definitions (as the migrations made them).
 */
async function dropSecondaryIndexes(db: NodePgDatabase) {
  const { rows } = await db.execute<{ name: string; definition: string }>(sql`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = 'products'::regclass and not i.indisunique and not i.indisprimary`);
  for (const { name } of rows) await db.execute(sql`drop index ${sql.identifier(name)}`);
  return async () => {
    await db.execute(sql`set maintenance_work_mem = '256MB'`);
    for (const { definition } of rows) await db.execute(sql.raw(definition));
    await db.execute(sql`reset maintenance_work_mem`);
  };
}

/** Inserts the products in batches of BATCH, each generated inside PostgreSQL. */
async function insertProducts(
  db: NodePgDatabase,
  { total, kindCount, sellerCount, publicUrl }: { total: number; kindCount: number; sellerCount: number; publicUrl: string },
  batchDone: (products: number) => void,
) {
  for (let from = 1; from <= total; from += BATCH) {
    const to = Math.min(total, from + BATCH - 1);
    await db.transaction(async (tx) => {
      // Every row's text is made of the seed's own words and places, which go into the vocabulary
      // and the places at the end at once, and its words are counted and listed at the end too; the
      // per-row triggers would do the same, a million times over.
      await tx.execute(sql`alter table products disable trigger products_search_terms`);
      await tx.execute(sql`alter table products disable trigger products_search_places`);
      await tx.execute(sql`alter table products disable trigger products_facet_counts_insert`);
      await tx.execute(sql`alter table products disable trigger products_search_words_insert`);
      await tx.execute(sql`
        with numbered as (
          select i,
                 -- Deterministic pseudo-random numbers in [0, 1), several per row.
                 (hashint4(i) & 2147483647)::float8 / 2147483648 as u1,
                 (hashint4(i + 1000003) & 2147483647)::float8 / 2147483648 as u2,
                 (hashint4(i + 2000003) & 2147483647)::float8 / 2147483648 as u3,
                 (hashint4(i + 3000017) & 2147483647)::float8 / 2147483648 as u4,
                 (hashint4(i + 4000037) & 2147483647)::float8 / 2147483648 as u5,
                 (hashint4(i + 5000011) & 2147483647)::float8 / 2147483648 as u6,
                 (hashint4(i + 6000023) & 2147483647)::float8 / 2147483648 as u7
          from generate_series(${from}::int, ${to}::int) as i
        ),
        drawn as (
          select n.*, k.*, c.id as category_id, s.id as seller_id,
                 (array['Excellent', 'Good', 'Fair'])[1 + floor(n.u2 * 3)::int]::product_condition as condition,
                 floor(n.u3 * n.u3 * 15)::int as years,
                 round((k.price * (0.6 + n.u4))::numeric, -1) + 9 as original,
                 now() - make_interval(secs => n.u5 * 3 * 365 * 86400) as posted,
                 n.u6 < 0.15 as sold,
                 0.8 + 0.4 * n.u1 as scale
          from numbered n
          join seed_kinds k on k.kind_no = 1 + (hashint4(n.i + 7000001) & 2147483647) % ${kindCount}
          join categories c on c.category_name = k.category_name
          join seed_sellers s on s.seller_no = 1 + (hashint4(n.i + 9000011) & 2147483647) % ${sellerCount}
        )
        insert into products (category_id, seller_id, condition, product_name, years_of_used_product, original_price, resale_price,
          description, phone, location, product_image, photos, width_cm, depth_cm, height_cm, advertisement, in_stock, state, posted_at, sold_at)
        select category_id, seller_id, condition,
               initcap((${textArray(styles)})[1 + floor(u1 * ${styles.length})::int]) || ' ' || (${textArray(materials)})[1 + floor(u4 * ${materials.length})::int] || ' ' || type,
               case when years = 0 then (1 + floor(u5 * 11)::int) || ' months' when years = 1 then '1 year' else years || ' years' end,
               original,
               greatest(5, round((original * (case condition when 'Excellent' then 0.75 when 'Good' then 0.6 else 0.4 end) * power(0.88, years) * (0.8 + 0.4 * u2))::numeric)),
               'A ' || lower((${textArray(styles)})[1 + floor(u3 * ${styles.length})::int]) || ' ' || type || ' in ' || (${textArray(materials)})[1 + floor(u4 * ${materials.length})::int] || '. '
                 || (${textArray(details)})[1 + floor(u6 * ${details.length})::int] || ' ' || (${textArray(details)})[1 + floor(u1 * ${details.length})::int],
               '0171' || lpad((i % 10000000)::text, 7, '0'),
               (${textArray(places)})[1 + floor(u7 * ${places.length})::int],
               ${`${publicUrl}/demo/`} || picture || '-' || (1 + i % 2) || '.svg',
               array[${`${publicUrl}/demo/`} || picture || '-' || (1 + i % 2) || '.svg', ${`${publicUrl}/demo/`} || picture || '-' || (2 - i % 2) || '.svg'],
               case when u6 < 0.9 then round((width * scale)::numeric) end,
               case when u6 < 0.9 then round((depth * (0.8 + 0.4 * u3))::numeric) end,
               case when u6 < 0.9 then round((height * (0.8 + 0.4 * u5))::numeric) end,
               not sold and u1 < 0.02,
               case when sold then 'sold' else 'available' end::stock_state,
               case when sold then 'sold' else 'available' end::listing_state,
               posted,
               case when sold then posted + (now() - posted) * u2 end
        from drawn`);
      await tx.execute(sql`alter table products enable trigger products_search_terms`);
      await tx.execute(sql`alter table products enable trigger products_search_places`);
      await tx.execute(sql`alter table products enable trigger products_facet_counts_insert`);
      await tx.execute(sql`alter table products enable trigger products_search_words_insert`);
    });
    batchDone(to);
  }
}
