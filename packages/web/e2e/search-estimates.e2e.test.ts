import { searchTexts } from '@furniture/contract';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createUser } from '../../server/src/demo/factories.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { sidewaysOverflow } from './support/ui.ts';

// A word in a few thousand listings is broad here, so its facets are estimated from the sample.
const market = setupMarketplace({ facetSampleFrom: 1_000 });
const chromium = setupBrowser();
let session: Session;

beforeAll(async () => {
  const image = `${market.url}/demo/chair-1.svg`;
  const seller = await createUser(market.db, { role: 'seller', name: 'Karim Hossain' });
  const chairs = await createCategory(market.db, { categoryName: 'Chairs', image });
  const stools = await createCategory(market.db, { categoryName: 'Stools', image });
  // The last byte of an id says whether its listing is in the sample (below 3): 6,000 chairs, 60
  // of them in the sample, half Good and half Fair, and 3 stools, none in it.
  const add = (categoryId: string, name: string, count: number, lastByte: string) =>
    market.db.execute(sql`
      insert into products (id, category_id, seller_id, condition, product_name, years_of_used_product, original_price, resale_price, description, phone, location, product_image, state, in_stock)
      select encode(set_byte(uuid_send(gen_random_uuid()), 15, ${sql.raw(lastByte)}), 'hex')::uuid, ${categoryId}, ${seller.id},
        (array['Good', 'Fair'])[1 + i % 2]::product_condition, ${name}, '2 years', 300, 150, 'Solid and clean', '01700000000', 'Dhaka', ${image}, 'available', 'available'
      from generate_series(1, ${count}) as i`);
  await add(chairs.id, 'Ashwood chair', 60, '1');
  await add(chairs.id, 'Ashwood chair', 5_940, '100 + i % 150');
  await add(stools.id, 'Ashwood stool', 3, '200');
});

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

describe('a broad search on a phone', () => {
  it('shows estimated counts in words, without sideways scrolling', async () => {
    session = await openSession(chromium.browser, market.url, { width: 375, height: 800 });
    const { page } = session;
    await page.goto('/search?q=ashwood&maxPrice=1000');
    // 60 chairs in the sample: 60 × 256 / 3 = 5,120, about 5,100; 30 of each condition, about 2,600;
    // the result count adds the conditions' estimates and rounds again.
    await page.getByTestId('result-count').getByText(searchTexts.resultEstimate('5,200')).waitFor();
    await page.getByRole('button', { name: searchTexts.showFilters }).click();
    const drawer = page.getByRole('dialog', { name: searchTexts.filters });
    await drawer.waitFor();
    expect(await drawer.getByText(`(${searchTexts.about('2,600')})`).count()).toBe(2);
    expect(await drawer.getByRole('option', { name: `Chairs (${searchTexts.about('5,100')})` }).count()).toBe(1);
    expect(await drawer.getByRole('option', { name: `Stools (${searchTexts.aFew})` }).count()).toBe(1);
    expect(await sidewaysOverflow(page)).toBe(0);
    await checkPage(page, 'search-estimates-phone');
  });
});
