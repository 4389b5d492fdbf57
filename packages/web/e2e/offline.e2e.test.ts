import { labels, texts, uiTexts } from '@furniture/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { checkPage, setupBrowser, setupSessions, waitForNetworkIdle } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectText, logIn } from './support/ui.ts';

/** A buyer whose network drops: the app says so, and so does every action tried meanwhile. */

const market = setupMarketplace();
const chromium = setupBrowser();
const open = setupSessions(chromium, market);
const buyer = { email: 'offline.buyer@example.com', password: DEFAULT_TEST_PASSWORD };
let categoryId: string;

beforeAll(async () => {
  const image = `${market.url}/favicon.svg`;
  await createUser(market.db, { ...buyer, role: 'buyer', name: 'Nila Buyer' });
  const seller = await createUser(market.db, { role: 'seller', verified: true, image });
  categoryId = (await createCategory(market.db, { categoryName: 'Shelves', image })).id;
  await createProduct(market.db, { categoryId, sellerId: seller.id }, { productName: 'Pine shelf', productImage: image });
});

describe('offline', () => {
  it('shows a banner, and pressing Wish says the marketplace cannot be reached, though no toast was shown before', async () => {
    const { context, page, pageErrors } = await open({ width: 375, height: 800 });
    await logIn(page, buyer.email, buyer.password);
    // A fresh load: the toasts' code, loaded with the first message, is not in the page.
    await page.goto(`/category/${categoryId}`);
    await page.getByRole('heading', { name: texts.availableProducts }).waitFor();
    // The heading comes with the page's HTML; its products, with the app, once it has loaded all it loads.
    await page.getByRole('button', { name: `${labels.product.wish}: Pine shelf` }).waitFor();
    await waitForNetworkIdle(page);

    // The network drops: nothing reaches the server, the toasts' code included.
    await page.route('**/*', (route) => route.abort('internetdisconnected'));
    await context.setOffline(true);
    await expectText(page, uiTexts.shell.offline);

    await page.getByRole('button', { name: `${labels.product.wish}: Pine shelf` }).click();
    await expectText(page, uiTexts.shell.noAnswer);
    await checkPage(page, 'offline-wish-phone', { fullPage: false });

    await context.setOffline(false);
    await page.unroute('**/*');
    await expect.poll(() => page.getByText(uiTexts.shell.offline, { exact: true }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
