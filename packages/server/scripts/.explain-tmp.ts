import pg from 'pg';
import { planSearch } from '../src/products/search-plans.ts';
const url = process.argv[2]!;
const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows: [cat] } = await client.query(`select id from categories where category_name = 'Dressers'`);
const shapes = [
  { name: 'walnut dresser', query: { q: 'walnut dresser', minPrice: 0.01 } },
  { name: 'sofaa', query: { q: 'sofaa', minPrice: 0.01 } },
  { name: 'oak GF 300', query: { q: 'oak', condition: ['Good', 'Fair'], maxPrice: 300, minPrice: 0.01 } },
  { name: 'sofa plain', query: { q: 'sofa' } },
] as const;
const only = process.argv[3];
for (let round = 0; round < Number(process.argv[4] ?? 2); round++)
for (const shape of shapes) {
  if (only && !shape.name.includes(only)) continue;
  const plans = await planSearch(client, shape as never);
  for (const p of plans) {
    const exec = /Execution Time: ([\d.]+)/.exec(p.plan)?.[1];
    const planning = /Planning Time: ([\d.]+)/.exec(p.plan)?.[1];
    const buf = /Buffers: ([^\n]+)/.exec(p.plan)?.[1];
    console.log(`${shape.name} | ${p.statement.slice(0, 60).padEnd(60)} | exec ${exec} | plan ${planning} | ${buf}`);
    if (process.env.FULL) console.log(p.plan);
  }
}
void cat;
await client.end();
