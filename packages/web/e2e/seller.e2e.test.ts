import { accountTexts, addProductTexts, conversationTexts, earningsTexts, labels, messages, priceGuideTexts, saleTexts, searchTexts, texts, uiTexts } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct } from '../../server/src/demo/factories.ts';
import { products, users } from '../../server/src/db/schema/index.ts';
import { mailedLink } from './support/mail.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { confirmDelete, controlledBy, expectPath, expectText, isFocused, loadedWidth, logIn, notAnImage, photo, sidewaysOverflow, signUp, tabStops } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;

const seller = { name: 'Karim Seller', email: 'karim.seller@example.com', password: 'Secret123', role: 'seller' as const };

beforeAll(async () => {
  await createCategory(market.db, { categoryName: 'Beds', description: 'Single and double beds', image: `${market.url}/favicon.svg` });
});

afterAll(async () => {
  await session?.close();
});

// One seller's journey: each step starts where the previous one left the browser.
describe('a seller', () => {
  it('signs up as a seller with a photo and sees their dashboard', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await signUp(page, seller);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: labels.nav.dashboard }).first().click();
    await expectPath(page, '/dashboard');
    await page.getByRole('heading', { name: texts.welcomeOther }).waitFor();
    const header = page.getByTestId('profile-header');
    expect(await header.innerText()).toContain(`${seller.name} (seller)`);
    const avatar = header.getByRole('img', { name: seller.name });
    await expect.poll(() => loadedWidth(avatar)).toBeGreaterThan(0);
    const menu = page.getByRole('navigation', { name: 'Dashboard' });
    await menu.getByRole('link', { name: labels.dashboardMenu.myProducts, exact: true }).waitFor();
    await menu.getByRole('link', { name: labels.dashboardMenu.addProduct }).waitFor();
    // A seller buys too: the buyer's links follow the seller's.
    await menu.getByRole('link', { name: labels.dashboardMenu.myOrders }).waitFor();
    await checkPage(page, 'dashboard-seller');
    expect(session.pageErrors).toEqual([]);
  });

  it('is asked to verify the e-mail, opens the link from the e-mail, and the request goes away', async () => {
    const { page } = session;
    const banner = page.getByRole('region', { name: accountTexts.verify.bannerLabel });
    await banner.getByText(accountTexts.verify.banner).waitFor();
    await page.goto(await mailedLink(market, seller.email, accountTexts.mail.verifySubject, '/verify-email'));
    await expectText(page, accountTexts.verify.done);
    await checkPage(page, 'verify-email');
    expect(await banner.count()).toBe(0);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: texts.welcomeOther }).waitFor();
    expect(await banner.count()).toBe(0);
  });

  it('is told what is missing on an empty Add Product form', async () => {
    const { page } = session;
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: labels.dashboardMenu.addProduct }).click();
    await expectPath(page, '/dashboard/addProducts');
    expect(await page.getByLabel('Seller Name').inputValue()).toBe(seller.name);
    expect(await page.getByLabel('Seller Email').inputValue()).toBe(seller.email);
    expect(await page.getByLabel('Seller Name').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByLabel('Seller Email').getAttribute('readonly')).not.toBeNull();
    // Nothing is assumed about the piece: the seller chooses its condition.
    expect(await page.getByLabel('Condition').inputValue()).toBe('');
    expect(await page.getByLabel('Condition').locator('option').first().innerText()).toBe(addProductTexts.chooseCondition);
    await page.getByRole('button', { name: labels.dashboardMenu.addProduct }).click();
    await expectText(page, messages.productCategoryRequired);
    await expectText(page, addProductTexts.conditionRequired);
    await expectText(page, addProductTexts.photosRequired);
    await checkPage(page, 'dashboard-add-product');
  });

  it('keeps a started listing across a reload, and asks before leaving it', async () => {
    const { page } = session;
    await page.getByLabel('Product Name').fill('Pine bunk bed');
    await page.getByLabel('Location').fill('Uttara');
    // Reloading asks first (the browser's own question), and the words come back as a draft.
    const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => void dialog.accept().then(() => resolve(dialog.type()))));
    await page.reload();
    expect(await asked).toBe('beforeunload');
    await expectText(page, addProductTexts.draftRestored);
    await expect.poll(() => page.getByLabel('Product Name').inputValue()).toBe('Pine bunk bed');
    expect(await page.getByLabel('Location').inputValue()).toBe('Uttara');
    expect(await page.getByLabel('Seller Email').inputValue()).toBe(seller.email);
    await checkPage(page, 'dashboard-add-product-draft');

    // Leaving for another page of the app with a change unsaved asks first; Stay keeps the form.
    await page.getByLabel('Product Name').fill('Pine bunk bed with ladder');
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: labels.dashboardMenu.myProducts, exact: true }).click();
    const leave = page.getByRole('dialog', { name: addProductTexts.leave.title });
    await leave.getByText(addProductTexts.leave.body).waitFor();
    await checkPage(page, 'dashboard-add-product-leave', { fullPage: false });
    await leave.getByRole('button', { name: addProductTexts.leave.stay }).click();
    await leave.waitFor({ state: 'hidden' });
    await expectPath(page, '/dashboard/addProducts');
    expect(await page.getByLabel('Product Name').inputValue()).toBe('Pine bunk bed with ladder');

    // Start over empties the form and forgets the draft.
    await page.getByRole('button', { name: addProductTexts.startOver }).click();
    await expect.poll(() => page.getByLabel('Product Name').inputValue()).toBe('');
    await page.reload();
    await page.getByLabel('Product Name').waitFor();
    expect(await page.getByText(addProductTexts.draftRestored).count()).toBe(0);
    expect(await page.getByLabel('Location').inputValue()).toBe('');
  });

  it('adds a product with photos in the chosen order and measurements, guided on price, and finds it in My Products', async () => {
    const { page } = session;
    await page.getByLabel('Product Category').selectOption({ label: 'Beds' });
    await page.getByLabel('Condition').selectOption('Good');
    await page.getByLabel('Product Name').fill('Oak double bed');
    await page.getByLabel('Years of Use').fill('4 years');
    await page.getByLabel(`${labels.product.originalPrice} ($)`).fill('700');
    await page.getByLabel(`${labels.product.resalePrice} ($)`).fill('320');
    await page.getByLabel('Description').fill('Sturdy oak frame, mattress not included');
    await page.getByLabel('Phone').fill('01711223344');
    // The place is picked from the towns suggested as it is typed.
    const place = page.getByRole('combobox', { name: 'Location' });
    await place.fill('Chittag');
    await page.getByRole('option', { name: 'Chittagong, Bangladesh' }).click();
    expect(await place.inputValue()).toBe('Chittagong, Bangladesh');
    // The guide suggests a price once category, condition, original price and age are known.
    const guide = page.getByTestId('price-guide');
    await guide.getByText(priceGuideTexts.estimate).waitFor();
    await page.getByLabel(`${labels.product.resalePrice} ($)`).fill('2000');
    await guide.getByText(priceGuideTexts.tooHigh).waitFor();
    await page.getByLabel(`${labels.product.resalePrice} ($)`).fill('320');
    await page.getByLabel(searchTexts.width).fill('160');
    await page.getByLabel(searchTexts.depth).fill('210');
    await page.getByLabel(searchTexts.height).fill('95');
    // A file that is not an image is refused as soon as it is chosen, and not added.
    await page.getByLabel(addProductTexts.addPhotos).setInputFiles(notAnImage);
    await expectText(page, uiTexts.imageFile.wrongType);
    expect(await page.getByRole('list', { name: addProductTexts.photos }).count()).toBe(0);
    await page.getByLabel(addProductTexts.addPhotos).setInputFiles([await photo('side.jpg', { r: 20, g: 80, b: 140 }), await photo('bed.jpg', { r: 120, g: 80, b: 40 })]);
    await page.getByRole('button', { name: `${addProductTexts.moveEarlier}: bed.jpg` }).click();
    await page.getByRole('img', { name: `bed.jpg (${addProductTexts.cover})` }).waitFor();
    // The upload is quick here, so the page itself records that its progress bar was shown.
    await page.evaluate(`
      window.sawUploadProgress = false;
      new MutationObserver(() => {
        if (document.querySelector('progress[aria-label="${addProductTexts.photos}: uploading"]')) window.sawUploadProgress = true;
      }).observe(document.body, { childList: true, subtree: true });
    `);
    await page.getByRole('button', { name: labels.dashboardMenu.addProduct }).click();

    await expectText(page, messages.imageUploadSucceeded);
    expect(await page.evaluate('window.sawUploadProgress')).toBe(true);
    await expectText(page, 'Oak double bed is listed');
    await expectPath(page, '/dashboard/myProducts');
    const [listed] = await market.db.select().from(products).where(eq(products.productName, 'Oak double bed'));
    expect(listed!.photos).toHaveLength(2);
    expect(listed!.productImage).toBe(listed!.photos[0]);
    expect([listed!.widthCm, listed!.depthCm, listed!.heightCm].map(Number)).toEqual([160, 210, 95]);
    // The listing has its town's point, to about a kilometre.
    expect(listed!.placeId).not.toBeNull();
    expect(listed!.lat).toBeCloseTo(22.34, 1);
    expect(listed!.lon).toBeCloseTo(91.83, 1);
    const row = page.getByRole('row').filter({ hasText: 'Oak double bed' });
    await row.waitFor();
    expect(await row.innerText()).toContain('available');
    const image = row.getByRole('img', { name: 'Oak double bed' });
    await expect.poll(() => loadedWidth(image)).toBeGreaterThan(0);
    expect(session.pageErrors).toEqual([]);
  });

  it('advertises the product, which then shows on Home', async () => {
    const { page } = session;
    const row = page.getByRole('row').filter({ hasText: 'Oak double bed' });
    await row.getByRole('button', { name: `${uiTexts.advertise.action}: Oak double bed` }).click();
    await expectText(page, 'Oak double bed is now advertised');
    await row.getByText('Advertised').waitFor();
    await checkPage(page, 'dashboard-my-products');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: labels.nav.home }).first().click();
    await expectPath(page, '/');
    await page.getByRole('heading', { name: texts.advertisement }).waitFor();
    const card = page.getByTestId('product-card').filter({ hasText: 'Oak double bed' });
    await card.waitFor();
    expect(await card.innerText()).toContain('$320');
    expect(await card.innerText()).toContain(seller.name);
    expect(session.pageErrors).toEqual([]);
  });

  it('deletes a product from My Products', async () => {
    const { page } = session;
    const [account] = await market.db.select().from(users).where(eq(users.email, seller.email));
    const [category] = await market.db.query.categories.findMany();
    await createProduct(market.db, { categoryId: category!.id, sellerId: account!.id }, { productName: 'Wobbly stool' });
    await page.goto('/dashboard/myProducts');
    const row = page.getByRole('row').filter({ hasText: 'Wobbly stool' });
    await row.getByRole('button', { name: `${labels.table.delete} Wobbly stool` }).click();
    await confirmDelete(page, 'Wobbly stool');
    await expectText(page, messages.productDeleted);
    await row.waitFor({ state: 'detached' });
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Oak double bed' }).count()).toBe(1);
    expect(session.pageErrors).toEqual([]);
  });

  it('uses the dashboard on a phone, with the menu in a drawer', async () => {
    const phone = await openSession(chromium.browser, market.url, { width: 390, height: 844 });
    try {
      const { page } = phone;
      await logIn(page, seller.email, seller.password);
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: texts.welcomeOther }).waitFor();
      const menu = page.getByRole('navigation', { name: 'Dashboard' });
      const myProducts = menu.getByRole('link', { name: labels.dashboardMenu.myProducts, exact: true });
      // One menu button on a phone: the dashboard's drawer holds the site's links too.
      const toggle = page.getByRole('button', { name: 'Open menu' });
      expect(await page.getByLabel('Open navigation menu').count()).toBe(0);
      const drawer = await controlledBy(page, toggle);
      const pageOverflow = () => page.evaluate('getComputedStyle(document.documentElement).overflow');
      expect(await myProducts.isVisible()).toBe(false);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');

      // Opening moves focus to the drawer's first link; Tab stays in the drawer and the page behind holds still.
      await toggle.click();
      await myProducts.waitFor({ state: 'visible' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => drawer.getByRole('link', { name: labels.dashboardMenu.addProduct }).count()).toBe(1);
      await expect.poll(() => isFocused(menu.getByRole('link', { name: labels.nav.dashboard }))).toBe(true);
      expect(await pageOverflow()).toBe('hidden');
      await checkPage(page, 'dashboard-seller-phone', { fullPage: false });
      // After the last link focus leaves the page for the browser's own controls (null here) and
      // comes round to the drawer again: nothing behind it takes focus.
      expect(await tabStops(page, 15)).toEqual([
        labels.dashboardMenu.myProducts,
        labels.dashboardMenu.addProduct,
        saleTexts.sellerBookingsTitle,
        earningsTexts.title,
        labels.dashboardMenu.myOrders,
        labels.dashboardMenu.myWishes,
        conversationTexts.messagesTitle,
        accountTexts.settings.menu,
        labels.nav.home,
        labels.nav.categories,
        labels.nav.blog,
        null,
        'Close dashboard menu',
        labels.nav.dashboard,
        labels.dashboardMenu.myProducts,
      ]);

      // Escape closes it and gives focus back to the toggle.
      await page.keyboard.press('Escape');
      await myProducts.waitFor({ state: 'hidden' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await isFocused(toggle)).toBe(true);
      expect(await pageOverflow()).not.toBe('hidden');

      // Opened again from the keyboard, it closes once a link is followed.
      await page.keyboard.press('Enter');
      await myProducts.waitFor({ state: 'visible' });
      await expect.poll(() => isFocused(menu.getByRole('link', { name: labels.nav.dashboard }))).toBe(true);
      await myProducts.click();
      await expectPath(page, '/dashboard/myProducts');
      await page.getByRole('row').filter({ hasText: 'Oak double bed' }).waitFor();
      await myProducts.waitFor({ state: 'hidden' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await isFocused(toggle)).toBe(true);
      expect(await pageOverflow()).not.toBe('hidden');
      expect(await sidewaysOverflow(page)).toBe(0);
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
