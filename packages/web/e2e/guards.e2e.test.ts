import { capabilityTexts, IMAGE_MAX_BYTES, labels, messages, texts, TOKEN_STORAGE_KEY, uiTexts } from '@furniture/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createUser, DEFAULT_TEST_PASSWORD } from '../../server/src/demo/factories.ts';
import { checkPage, openSession, setupBrowser, type Session } from './support/browser.ts';
import { setupMarketplace } from './support/marketplace.ts';
import { expectPath, expectSignedIn, expectText, isRed, loadedWidth, logIn, notAnImage, oversizedImage, photo, storedToken, submitLogin, textColor } from './support/ui.ts';

const market = setupMarketplace();
const chromium = setupBrowser();
let session: Session;

const buyer = { email: 'guarded.buyer@example.com', password: DEFAULT_TEST_PASSWORD };
const seller = { email: 'guarded.seller@example.com', password: DEFAULT_TEST_PASSWORD };
const admin = { email: 'guarded.admin@example.com', password: DEFAULT_TEST_PASSWORD };
let categoryId: string;

beforeAll(async () => {
  await createUser(market.db, { ...buyer, role: 'buyer', name: 'Guarded Buyer' });
  await createUser(market.db, { ...seller, role: 'seller', name: 'Guarded Seller' });
  await createUser(market.db, { ...admin, role: 'admin', name: 'Guarded Admin' });
  const category = await createCategory(market.db, { categoryName: 'Chairs', image: `${market.url}/favicon.svg` });
  categoryId = category.id;
});

afterEach(async () => {
  expect(session.pageErrors).toEqual([]);
  await session.close();
});

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('route guards', () => {
  it('send a visitor from a dashboard page to login, and back there after signing in', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/dashboard/myOrders');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === '/dashboard/myOrders');
    await checkPage(page, 'login');
    // This server has no Google client configured: the button keeps its name, a readable note says why it is off.
    const google = page.getByRole('button', { name: labels.login.google, exact: true });
    expect(await google.isDisabled()).toBe(true);
    const note = page.getByText(uiTexts.googleNotSetUp, { exact: true });
    expect(await note.isVisible()).toBe(true);
    expect(await google.getAttribute('aria-describedby')).toBe(await note.getAttribute('id'));
    // The password can be shown to check it, and hidden again.
    const password = page.getByLabel(labels.login.password, { exact: true });
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByLabel(uiTexts.showPassword).check();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByLabel(uiTexts.showPassword).uncheck();
    expect(await password.getAttribute('type')).toBe('password');
    await submitLogin(page, buyer.email, buyer.password);
    await expectText(page, messages.signInSuccess);
    await expectPath(page, '/dashboard/myOrders');
    await page.getByRole('heading', { name: labels.dashboardMenu.myOrders }).waitFor();
  });

  it('send a visitor from a category page to login, and back to the category after signing in', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto(`/category/${categoryId}`);
    await page.waitForURL((url) => url.pathname === '/login');
    await submitLogin(page, buyer.email, buyer.password);
    await expectPath(page, `/category/${categoryId}`);
    await page.getByRole('heading', { name: texts.availableProducts }).waitFor();
  });

  it('send a buyer away from seller pages to Home, saying why', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await logIn(page, buyer.email, buyer.password);
    for (const path of ['/dashboard/myProducts', '/dashboard/addProducts']) {
      await page.goto(path);
      await expectPath(page, '/');
      await expectSignedIn(page);
      await expectText(page, capabilityTexts.pageFor.sell);
    }
  });

  it('let a seller, who buys too, in to buyer pages', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await logIn(page, seller.email, seller.password);
    await page.goto('/dashboard/myOrders');
    await page.getByRole('heading', { name: labels.dashboardMenu.myOrders }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/myOrders');
  });

  it('send an admin who does not buy away from buyer pages to Home, saying why', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await logIn(page, admin.email, admin.password);
    for (const path of ['/dashboard/myOrders', '/dashboard/myWishes', '/dashboard/payment/7f1c2a8e-1111-4222-8333-944455556666']) {
      await page.goto(path);
      await expectPath(page, '/');
      await expectSignedIn(page);
      await expectText(page, capabilityTexts.pageFor.buy);
    }
  });

  it('log a non-admin out on an admin page and send them Home with the guard message', async () => {
    for (const [account, path] of [
      [buyer, '/dashboard/allBuyers'],
      [seller, '/dashboard/addAdmin'],
    ] as const) {
      session = await openSession(chromium.browser, market.url);
      const { page } = session;
      await logIn(page, account.email, account.password);
      await page.goto(path);
      await expectPath(page, '/');
      await expectText(page, messages.guardLogout);
      await page.getByRole('link', { name: labels.nav.logIn }).waitFor();
      expect(await storedToken(page)).toBeNull();
      // The session is over on the server too: a reload stays signed out.
      await page.reload();
      await page.getByRole('link', { name: labels.nav.logIn }).waitFor();
      expect(session.pageErrors).toEqual([]);
      await session.close();
    }
    session = await openSession(chromium.browser, market.url);
  });
});

describe('the session', () => {
  it('renews an expired or rejected access token without the user noticing', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await logIn(page, buyer.email, buyer.password);
    const original = await storedToken(page);
    expect(original).toBeTruthy();

    const expired = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 60 })}.c2ln`;
    const rejected = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: 'x', exp: Math.floor(Date.now() / 1000) + 300 })}.c2ln`;
    for (const stale of [expired, rejected]) {
      await page.evaluate(`localStorage.setItem(${JSON.stringify(TOKEN_STORAGE_KEY)}, ${JSON.stringify(stale)})`);
      await page.goto('/dashboard/myOrders');
      await page.getByRole('heading', { name: labels.dashboardMenu.myOrders }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard/myOrders');
      // The screen may show before the renewal's answer is stored: wait for the stored token to change.
      await expect.poll(() => storedToken(page)).not.toBe(stale);
      expect(await storedToken(page)).toBeTruthy();
    }
  });

  it('keeps the session when a renewal gets no answer, says so, offers no login meanwhile, and loads the page once an answer comes', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await logIn(page, buyer.email, buyer.password);

    // The page is left, or the network drops, while the token is being renewed.
    const expired = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 60 })}.c2ln`;
    await page.evaluate(`localStorage.setItem(${JSON.stringify(TOKEN_STORAGE_KEY)}, ${JSON.stringify(expired)})`);
    await page.route('**/api/auth/refresh', (route) => route.abort());
    let lostRenewals = 0;
    page.on('requestfailed', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/refresh') lostRenewals += 1;
    });
    // Without an answer to the renewal, the account is not asked for as though by a stranger.
    let askedWithoutSession = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/me' && !request.headers().authorization) askedWithoutSession += 1;
    });
    // Home, rendered by the server as nobody's, stops offering to log in once the wait is known.
    await page.goto('/');
    const unreachableNotice = page.getByRole('status').getByText(uiTexts.shell.unreachable, { exact: true });
    await unreachableNotice.waitFor();
    const navigation = page.getByRole('navigation', { name: uiTexts.shell.mainNavigation });
    expect(await navigation.getByRole('link', { name: labels.nav.logIn }).count()).toBe(0);
    expect(await navigation.getByRole('link', { name: labels.nav.signUp }).count()).toBe(0);

    lostRenewals = 0;
    await page.goto('/dashboard/myOrders');
    // The second renewal is only asked for once the first one's loss has been handled.
    await expect.poll(() => lostRenewals).toBeGreaterThanOrEqual(2);
    await unreachableNotice.waitFor();
    expect(await storedToken(page)).toBe(expired);
    expect(askedWithoutSession).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/dashboard/myOrders');

    // The network is back: the same page loads by itself, with the token renewed.
    await page.unroute('**/api/auth/refresh');
    await page.getByRole('heading', { name: labels.dashboardMenu.myOrders }).waitFor();
    await expect.poll(() => storedToken(page)).not.toBe(expired);
    expect(await storedToken(page)).toBeTruthy();
    expect(new URL(page.url()).pathname).toBe('/dashboard/myOrders');
    await page.getByText(uiTexts.shell.unreachable, { exact: true }).waitFor({ state: 'detached' });
  });

  it('reads a refused renewal to its end, so the browser does not count it as still loading', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    // A stored token that has expired, and no session cookie: the renewal is refused with 401.
    await page.goto('/');
    const expired = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 60 })}.c2ln`;
    await page.evaluate(`localStorage.setItem(${JSON.stringify(TOKEN_STORAGE_KEY)}, ${JSON.stringify(expired)})`);
    let refused = 0;
    let finished = 0;
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/auth/refresh' && response.status() === 401) refused += 1;
    });
    page.on('requestfinished', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/refresh') finished += 1;
    });
    await page.goto('/');
    await expect.poll(() => refused).toBeGreaterThanOrEqual(1);
    await expect.poll(() => storedToken(page)).toBeNull();
    await expect.poll(() => finished, { timeout: 3_000 }).toBe(refused);
  });

  it('says the marketplace cannot be reached, in its own words, when a login gets no answer', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/login');
    await page.route('**/api/auth/login', (route) => route.abort());
    await submitLogin(page, buyer.email, buyer.password);
    await page.getByRole('main').getByText(uiTexts.shell.noAnswer, { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('logs out to Home with the message, and a failed login shows its reason in red and as a toast', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await logIn(page, buyer.email, buyer.password);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: texts.welcomeOther }).waitFor();
    await page.getByRole('button', { name: labels.nav.logOut }).click();
    await expectPath(page, '/');
    await expectText(page, messages.guardLogout);
    await page.getByRole('link', { name: labels.nav.logIn }).waitFor();
    expect(await storedToken(page)).toBeNull();

    await page.goto('/login');
    await page.getByRole('button', { name: labels.login.signIn, exact: true }).click();
    await expectText(page, 'Email is required');
    await expectText(page, 'Password is required');
    await submitLogin(page, buyer.email, 'Wrong-password-1');
    const reason = page.getByText('Wrong e-mail or password.', { exact: true });
    await expect.poll(() => reason.count()).toBe(2);
    const inlineReason = page.getByRole('main').getByText('Wrong e-mail or password.', { exact: true });
    expect(isRed(await textColor(inlineReason))).toBe(true);
    // The error toast is on screen here, and is checked with the page.
    await checkPage(page, 'login-error', { includeToasts: true });
  });
});

describe('Google sign-in', () => {
  it('opens the provider in a popup and shows a failure it reports in red and as a toast', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page, context } = session;
    // This server has no Google client: its own settings, said to have one, and a stand-in popup that reports.
    await context.route('**/api/config', async (route) => {
      const config = await (await route.fetch()).json();
      await route.fulfill({ json: { ...config, data: { ...config.data, googleSignIn: true } } });
    });
    await context.route('**/api/auth/oidc/start', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>Google</title><script>
          window.opener.postMessage({ type: 'oidc-result', ok: false, message: 'Google sign-in was cancelled.' }, location.origin);
          window.close();
        </script>`,
      }),
    );
    // The login page comes from the server with its own config; the stand-in is the app's, so the
    // page is reached from within the app.
    await page.goto('/forgot-password');
    await page.getByRole('link', { name: labels.nav.logIn }).first().click();
    await page.waitForURL((url) => url.pathname === '/login');
    const google = page.getByRole('button', { name: labels.login.google });
    await expect.poll(() => google.isEnabled()).toBe(true);
    const [popup] = await Promise.all([page.waitForEvent('popup'), google.click()]);
    expect(new URL(popup.url()).pathname).toBe('/api/auth/oidc/start');
    const reason = page.getByText('Google sign-in was cancelled.', { exact: true });
    await expect.poll(() => reason.count()).toBe(2);
    expect(isRed(await textColor(page.getByRole('main').getByText('Google sign-in was cancelled.', { exact: true })))).toBe(true);
    expect(await storedToken(page)).toBeNull();
  });
});

describe('sign-up', () => {
  it('shows each validation message of section 5', async () => {
    session = await openSession(chromium.browser, market.url);
    const { page } = session;
    await page.goto('/signup');
    await page.getByRole('heading', { name: texts.signupTitle }).waitFor();
    const submit = page.getByRole('button', { name: labels.signup.signUp });
    const password = page.getByLabel(labels.signup.password, { exact: true });

    await submit.click();
    await expectText(page, 'Name is required');
    await expectText(page, 'Email is required');
    await expectText(page, messages.passwordRequired);
    await expectText(page, messages.roleRequired);
    await expectText(page, messages.photoRequired);
    await checkPage(page, 'signup-validation');

    await password.fill('Ab1');
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByLabel(uiTexts.showPassword).check();
    expect(await password.getAttribute('type')).toBe('text');
    expect(await password.inputValue()).toBe('Ab1');
    await submit.click();
    await expectText(page, messages.passwordTooShort);
    for (const weak of ['abcdefg1', 'Abcdefgh']) {
      await password.fill(weak);
      await submit.click();
      await expectText(page, messages.passwordTooWeak);
    }

    // With every field valid, the server's refusal shows in red.
    await page.getByLabel(labels.signup.name, { exact: true }).fill('Someone Else');
    await page.getByLabel(labels.signup.email, { exact: true }).fill(buyer.email);
    await password.fill('Secret123');
    await page.getByLabel(labels.signup.buyer, { exact: true }).check();
    // The photo is checked as soon as it is chosen, and previewed once it would be taken.
    const photoField = page.getByLabel(labels.signup.photo);
    await photoField.setInputFiles(oversizedImage());
    await expectText(page, uiTexts.imageFile.tooLarge(IMAGE_MAX_BYTES / 1024 / 1024));
    await photoField.setInputFiles(notAnImage);
    await expectText(page, uiTexts.imageFile.wrongType);
    await photoField.setInputFiles(await photo());
    await expect.poll(() => loadedWidth(page.getByRole('img', { name: uiTexts.imageFile.preview }))).toBeGreaterThan(0);
    expect(await page.getByText(uiTexts.imageFile.wrongType).count()).toBe(0);
    await submit.click();
    await page.locator('p.text-red-700', { hasText: /already exists/ }).waitFor();
    for (const gone of [messages.passwordRequired, messages.roleRequired, messages.photoRequired, messages.passwordTooWeak]) {
      expect(await page.getByText(gone, { exact: true }).count()).toBe(0);
    }
    await expectPath(page, '/signup');
  });
});
