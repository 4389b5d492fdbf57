import { texts } from '@furniture/contract';
import { describe, expect, it } from 'vitest';
import { createCategory } from '../../server/src/demo/factories.ts';
import { openSession, setupBrowser } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';

const market = setupMarketplace();
const chromium = setupBrowser();

describe('public answers a browser may reuse for a while', () => {
  it('are asked for again by the web app, so a change shows on the next visit', async () => {
    await createCategory(market.db, { categoryName: 'Sofas' });
    const session = await openSession(chromium.browser, market.url);
    try {
      const { page } = session;
      await page.goto('/');
      await page.getByRole('heading', { name: 'Sofas' }).waitFor();
      const list = await page.request.get('/api/allCategories');
      // Other caches may show this list for a while after it changes...
      expect(list.headers()['cache-control']).toContain('stale-while-revalidate');

      await createCategory(market.db, { categoryName: 'Wardrobes' });
      // ...but this browser, asked again by the app within that while, shows the change.
      await page.goto('/');
      await page.getByRole('heading', { name: texts.furnitureCategories }).waitFor();
      await page.getByRole('heading', { name: 'Wardrobes' }).waitFor();
      expect(session.pageErrors).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
