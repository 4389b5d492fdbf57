import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { documentTitle, FIRST_ANSWERS_ELEMENT_ID, pageHeads, ROUTE_PRELOADS_FILE, SERVER_PAGES_MODULE, texts, webRoutes } from '@furniture/contract';
import { setupSecondApp, setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../demo/factories.ts';
import { products, productViews } from '../db/schema/index.ts';

// A stand-in for the built app's index.html, with the parts the server fills in.
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'furniture-web-'));
fs.writeFileSync(
  path.join(webDir, 'index.html'),
  `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="description" content="The marketplace" /><title>${texts.brand}</title></head><body><div id="root"></div></body></html>`,
);
// A stand-in for the build's module that renders the public pages: it shows what it was given and
// how many times it ran, and fails for a product named "Unrenderable".
fs.mkdirSync(path.join(webDir, path.dirname(SERVER_PAGES_MODULE)));
fs.writeFileSync(
  path.join(webDir, SERVER_PAGES_MODULE),
  `let renders = 0;
const page = (body) => '<!doctype html><html lang="en"><head><meta name="description" content="The marketplace" /><title>${texts.brand}</title></head><body><div id="root">' + body + '</div></body></html>';
const text = (value) => String(value).replace(/[<&]/g, '');
export async function renderPage(pathname, answers) {
  renders += 1;
  if (pathname.startsWith('/search')) {
    const [url, results] = Object.entries(answers).find(([url]) => url.startsWith('/api/products')) ?? ['no read', { data: [] }];
    const names = results.data.map((product) => product.productName).join(', ');
    return page('<h1>Search, render ' + renders + ' of ' + text(pathname) + ' from ' + text(url) + '</h1><p>' + text(names) + '</p>');
  }
  if (pathname === '/') {
    const names = answers['/api/advertisement'].data.map((product) => product.productName).join(', ');
    return page('<h1>Home, render ' + renders + '</h1><p>' + text(names) + '</p>');
  }
  if (!pathname.startsWith('/product/')) return page('<h1>Page ' + text(pathname) + ', render ' + renders + '</h1>');
  const product = answers['/api/products/' + pathname.split('/')[2]].data;
  if (product.productName === 'Unrenderable') throw new Error('The render failed');
  return page('<h1>' + text(product.productName) + '</h1><p>Render ' + renders + ' of ' + text(pathname) + ', $' + product.resalePrice + '</p>');
}
`,
);
// A stand-in for the build's list of the code a landing page's route loads.
fs.writeFileSync(path.join(webDir, ROUTE_PRELOADS_FILE), JSON.stringify({ [webRoutes.product]: ['assets/product-1.js', 'assets/schemas-2.js'] }));
afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));

const t = setupTestApp({ publicUrl: 'https://furniture.example.com' }, { webDir });
const second = setupSecondApp(t, { webDir });

async function listed(overrides: Parameters<typeof createProduct>[2] = {}) {
  const seller = await createUser(t.db, { role: 'seller', password: null, name: 'Rahim & Sons' });
  const category = await createCategory(t.db, { categoryName: `Sofas ${Math.random()}` });
  return createProduct(t.db, { categoryId: category.id, sellerId: seller.id }, overrides);
}

const get = (url: string) => t.app.inject({ method: 'GET', url });

/** The head's parts as a browser or crawler reads them. */
function head(html: string) {
  const meta = (key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];
  const jsonLd = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return {
    title: /<title>([\s\S]*?)<\/title>/.exec(html)?.[1],
    meta,
    jsonLd: jsonLd ? JSON.parse(jsonLd) : undefined,
    titles: html.match(/<title>/g)?.length,
    descriptions: html.match(/<meta name="description"/g)?.length,
  };
}

describe('a product’s page', () => {
  it('carries its title, description, preview tags and schema.org Product data', async () => {
    const product = await listed({
      productName: 'Teak three-seater',
      description: 'Solid teak, new cushions.',
      condition: 'Excellent',
      resalePrice: '1450.00',
      location: 'Dhanmondi',
      photos: ['https://images.example.com/front.webp', '/demo/sofa-2.svg'],
    });
    const response = await get(`/product/${product.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const page = head(response.body);
    expect(page.titles).toBe(1);
    expect(page.descriptions).toBe(1);
    expect(page.title).toBe(`Teak three-seater – $1450.00 – ${texts.brand}`);
    expect(page.meta('description')).toBe('Excellent condition, Dhanmondi. Solid teak, new cushions.');
    expect(page.meta('og:title')).toBe('Teak three-seater');
    expect(page.meta('og:type')).toBe('product');
    expect(page.meta('og:url')).toBe(`https://furniture.example.com/product/${product.id}`);
    expect(page.meta('og:image')).toBe('https://images.example.com/front.webp');
    expect(page.meta('twitter:card')).toBe('summary_large_image');
    expect(page.meta('twitter:image')).toBe('https://images.example.com/front.webp');
    expect(page.jsonLd).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Teak three-seater',
      image: ['https://images.example.com/front.webp', 'https://furniture.example.com/demo/sofa-2.svg'],
      additionalProperty: { name: 'Condition', value: 'Excellent' },
      offers: {
        '@type': 'Offer',
        price: '1450.00',
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
        itemCondition: 'https://schema.org/UsedCondition',
      },
    });
  });

  it('escapes whatever the seller wrote, so nothing inserted becomes markup', async () => {
    const hostile = `</title></script><script>alert("x")</script><img src=x onerror=alert(1)> & 'quotes'`;
    const product = await listed({ productName: hostile, description: hostile, location: '"><b>' });
    const response = await get(`/product/${product.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('<script>alert');
    expect(response.body).not.toContain('<img src=x');
    expect(response.body).not.toContain('"><b>');
    const page = head(response.body);
    expect(page.title).toContain('&#60;/title&#62;&#60;/script&#62;');
    expect(page.jsonLd.name).toBe(hostile);
    expect(page.jsonLd.description).toBe(hostile);
  });

  it('says when a piece is sold', async () => {
    const product = await listed({ inStock: 'sold' });
    const page = head((await get(`/product/${product.id}`)).body);
    expect(page.jsonLd.offers.availability).toBe('https://schema.org/SoldOut');
  });

  it('answers 404 with the app’s page for an unknown or malformed id', async () => {
    for (const url of ['/product/00000000-0000-4000-8000-000000000000', '/product/not-an-id']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toContain('<div id="root"></div>');
      expect(head(response.body).jsonLd, url).toBeUndefined();
    }
  });
});

/** The API answers the server put into a page, by URL. */
function firstAnswers(html: string): Record<string, unknown> | undefined {
  const block = new RegExp(`<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">([\\s\\S]*?)</script>`).exec(html)?.[1];
  return block ? (JSON.parse(block) as Record<string, unknown>) : undefined;
}

describe('the code a page’s route loads', () => {
  const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);

  it('is preloaded in the head of that route’s pages when the app renders them in the browser', async () => {
    const product = await listed({ productName: 'Unrenderable' });
    const page = (await get(`/product/${product.id}`)).body;
    expect(preloads(page)).toEqual(['/assets/product-1.js', '/assets/schemas-2.js']);
    expect(page.indexOf('/assets/product-1.js')).toBeLessThan(page.indexOf('</head>'));
    expect(preloads((await get('/search?q=sofa')).body)).toEqual([]);
  });

  it('is not preloaded in a page the server rendered, whose app loads on the first interaction', async () => {
    const product = await listed();
    expect(preloads((await get(`/product/${product.id}`)).body)).toEqual([]);
    expect(preloads((await get('/')).body)).toEqual([]);
  });
});

describe('the first API answers in a page', () => {
  it('gives Home the category list, the advertised products and the config, exactly as the API answers them', async () => {
    const product = await listed({ advertisement: true, productName: 'Oak table' });
    const answers = firstAnswers((await get('/')).body);
    expect(answers).toEqual({
      '/api/allCategories': (await get('/api/allCategories')).json(),
      '/api/advertisement': (await get('/api/advertisement')).json(),
      '/api/config': (await get('/api/config')).json(),
    });
    expect(JSON.stringify(answers)).toContain(product.id);
  });

  it('gives a product’s and a seller’s page their own read and the config, other public pages the config, and the rest the category list only', async () => {
    const product = await listed();
    expect(firstAnswers((await get(`/product/${product.id}`)).body)).toEqual({
      '/api/allCategories': (await get('/api/allCategories')).json(),
      [`/api/products/${product.id}`]: (await get(`/api/products/${product.id}`)).json(),
      '/api/config': (await get('/api/config')).json(),
    });
    expect(firstAnswers((await get(`/seller/${product.sellerId}`)).body)).toEqual({
      '/api/allCategories': (await get('/api/allCategories')).json(),
      [`/api/sellers/${product.sellerId}`]: (await get(`/api/sellers/${product.sellerId}`)).json(),
      '/api/config': (await get('/api/config')).json(),
    });
    for (const url of ['/categories', `/category/${product.categoryId}`, '/blog', '/login', '/signup']) {
      expect(Object.keys(firstAnswers((await get(url)).body)!), url).toEqual(['/api/allCategories', '/api/config']);
    }
    expect(Object.keys(firstAnswers((await get('/dashboard')).body)!)).toEqual(['/api/allCategories']);
  });

  it('gives search its first page of results under the URL the app asks for: the URL’s parameters the API knows, blanks dropped, in order', async () => {
    await listed({ productName: 'Oak dresser', resalePrice: '300.00' });
    const read = '/api/products?q=oak&maxPrice=400&sort=price-asc';
    expect(firstAnswers((await get('/search?sort=price-asc&maxPrice=400&location=&utm_source=mail&q=+oak+')).body)).toEqual({
      '/api/allCategories': (await get('/api/allCategories')).json(),
      [read]: (await get(read)).json(),
      '/api/config': (await get('/api/config')).json(),
    });
    // With no parameters, the path alone, as the app asks.
    expect(Object.keys(firstAnswers((await get('/search')).body)!)).toContain('/api/products');
  });

  it('cannot be closed or turned into markup by what a seller wrote', async () => {
    const hostile = `</script><script>alert("x")</script><!-- \u2028`;
    const product = await listed({ advertisement: true, productName: hostile });
    const html = (await get('/')).body;
    expect(html).not.toContain('<script>alert');
    const advertised = firstAnswers(html)!['/api/advertisement'] as { data: Array<{ _id: string; productName: string }> };
    expect(advertised.data.find((row) => row._id === product.id)?.productName).toBe(hostile);
  });
});

describe('Home', () => {
  it('is rendered by the build’s module from its reads’ answers, once for as long as they stay the same', async () => {
    await listed({ advertisement: true, productName: 'Walnut sideboard' });
    const first = (await get('/')).body;
    expect(first).toMatch(/<div id="root"><h1>Home, render \d+<\/h1><p>[^<]*Walnut sideboard/);
    expect(first).toContain(`id="${FIRST_ANSWERS_ELEMENT_ID}"`);
    const render = /Home, render (\d+)/.exec(first)![1];
    expect(/Home, render (\d+)/.exec((await get('/home')).body)![1]).toBe(render);
  });

  it('keeps the module that renders it to the server', async () => {
    const response = await get(`/${SERVER_PAGES_MODULE}`);
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('renderPage');
  });
});

describe('a product’s page rendered by the server', () => {
  it('is rendered by the build’s module from the product’s answer, once for as long as it stays the same', async () => {
    const product = await listed({ productName: 'Rattan armchair', resalePrice: '95.00' });
    const response = await get(`/product/${product.id}`);
    expect(response.statusCode).toBe(200);
    const render = new RegExp(`<div id="root"><h1>Rattan armchair</h1><p>Render (\\d+) of /product/${product.id}, \\$95</p></div>`).exec(response.body)?.[1];
    expect(render).toBeDefined();
    // Its head and first answers are put in as on any page the app renders.
    expect(head(response.body).title).toBe(`Rattan armchair – $95.00 – ${texts.brand}`);
    expect(head(response.body).jsonLd.name).toBe('Rattan armchair');
    expect(Object.keys(firstAnswers(response.body)!)).toContain(`/api/products/${product.id}`);
    expect((await get(`/product/${product.id}`)).body).toContain(`Render ${render} of /product/${product.id}`);
  });

  it('is rendered again once the product changes', async () => {
    const product = await listed({ productName: 'Pine bench' });
    const first = /Render (\d+)/.exec((await get(`/product/${product.id}`)).body)![1];
    await t.db.update(products).set({ productName: 'Pine bench, sanded' }).where(eq(products.id, product.id));
    const again = (await get(`/product/${product.id}`)).body;
    expect(again).toContain('<h1>Pine bench, sanded</h1>');
    expect(/Render (\d+)/.exec(again)![1]).not.toBe(first);
  });

  it('is sent as the app’s page, with the product’s head, when the render fails', async () => {
    const product = await listed({ productName: 'Unrenderable' });
    const response = await get(`/product/${product.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(head(response.body).title).toBe(`Unrenderable – $${Number(product.resalePrice).toFixed(2)} – ${texts.brand}`);
    expect(Object.keys(firstAnswers(response.body)!)).toContain(`/api/products/${product.id}`);
  });
});

describe('a page the server renders, kept', () => {
  const compressed = { 'accept-encoding': 'br, gzip' };

  it('is sent again with its ETag, compressed once, and answers 304 when the browser names it', async () => {
    await listed({ advertisement: true, productName: 'Teak credenza' });
    for (const url of ['/', `/product/${(await listed({ productName: 'Oak stool' })).id}`, '/search?q=oak+stool']) {
      const first = await t.app.inject({ method: 'GET', url, headers: compressed });
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-encoding']).toBe('br');
      expect(first.headers.etag).toMatch(/^"[\w-]+-br"$/);
      expect(first.headers['cache-control']).toBe('no-cache');
      const again = await t.app.inject({ method: 'GET', url, headers: compressed });
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      const named = await t.app.inject({ method: 'GET', url, headers: { ...compressed, 'if-none-match': first.headers.etag! } });
      expect(named.statusCode).toBe(304);
      expect(named.body).toBe('');
    }
  });

  it('shows a write on the very next read, on this server and on another', async () => {
    await listed({ advertisement: true, productName: 'Cane rocker' });
    const product = await listed({ productName: 'Elm desk', resalePrice: '210.00' });
    for (const app of [t.app, second.app]) {
      expect((await app.inject({ method: 'GET', url: '/' })).body).not.toContain('Elm desk');
      expect((await app.inject({ method: 'GET', url: `/product/${product.id}` })).body).toContain('$210');
    }
    // Only the product's own row changes: no seller, category or review.
    await t.db.update(products).set({ resalePrice: '180.00', advertisement: true }).where(eq(products.id, product.id));
    for (const app of [t.app, second.app]) {
      await expect.poll(async () => (await app.inject({ method: 'GET', url: `/product/${product.id}` })).body).toContain('$180');
      expect((await app.inject({ method: 'GET', url: '/' })).body).toContain('Elm desk');
    }
  });

  it('counts one view of a product for each visit of a person to its page, and none for a crawler', async () => {
    const product = await listed({ productName: 'Ash wardrobe' });
    const url = `/product/${product.id}`;
    const browser = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)' };
    const first = await t.app.inject({ method: 'GET', url, headers: browser });
    await t.app.inject({ method: 'GET', url, headers: browser });
    await t.app.inject({ method: 'GET', url, headers: { ...browser, 'if-none-match': first.headers.etag! } });
    await t.app.inject({ method: 'GET', url, headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } });
    await t.app.productViews.flush();
    const [row] = await t.db.select().from(productViews).where(eq(productViews.productId, product.id));
    expect(row?.views).toBe(3);
  });

  it('is not kept when its render failed, so the next visit tries again', async () => {
    const product = await listed({ productName: 'Unrenderable' });
    const response = await t.app.inject({ method: 'GET', url: `/product/${product.id}`, headers: compressed });
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBeUndefined();
  });
});

describe('search rendered by the server', () => {
  it('is rendered by the build’s module from its first page of results, with its answers in the page', async () => {
    await listed({ productName: 'Walnut bookcase' });
    const response = await get('/search?q=walnut+bookcase');
    expect(response.statusCode).toBe(200);
    expect(response.body).toMatch(
      /<div id="root"><h1>Search, render \d+ of \/search\?q=walnut\+bookcase from \/api\/products\?q=walnut\+bookcase<\/h1><p>[^<]*Walnut bookcase/,
    );
    expect(firstAnswers(response.body)!['/api/products?q=walnut+bookcase']).toEqual((await get('/api/products?q=walnut+bookcase')).json());
  });

  it('keeps a render per query string, also when two query strings ask the API the same', async () => {
    await listed({ productName: 'Cane chair' });
    const renderOf = async (url: string) => /Search, render (\d+)/.exec((await get(url)).body)![1];
    const plain = await renderOf('/search?q=cane');
    const blank = await renderOf('/search?q=cane&location=');
    expect(blank).not.toBe(plain);
    expect(await renderOf('/search?q=cane')).toBe(plain);
    expect(await renderOf('/search?q=cane&location=')).toBe(blank);
    expect(await renderOf('/search?q=chair')).not.toBe(plain);
  });

  it('is left to the app, with status 200 and its other answers, when the API refuses its parameters', async () => {
    const response = await get('/search?q=sofa&minPrice=5&maxPrice=1');
    expect((await get('/api/products?q=sofa&minPrice=5&maxPrice=1')).statusCode).toBe(400);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(Object.keys(firstAnswers(response.body)!)).toEqual(['/api/allCategories', '/api/config']);
  });
});

describe('a page’s head', () => {
  it('titles and describes every page as the app does, before any script runs', async () => {
    for (const [url, pattern] of [
      ['/', webRoutes.home],
      ['/search?q=oak', webRoutes.search],
      ['/categories', webRoutes.categories],
    ] as const) {
      const { title, meta } = head((await get(url)).body);
      expect(title).toBe(documentTitle(pageHeads[pattern]!.title));
      expect(meta('description')).toBe(pageHeads[pattern]!.description);
    }
  });
});

describe('the web app’s other paths', () => {
  it('answers the app’s pages with 200 and every other path with 404 and the app’s error page', async () => {
    for (const url of ['/search?q=sofa&minPrice=5&maxPrice=1', '/dashboard', '/dashboard/myOrders', '/dashboard/payment/abc']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<div id="root"></div>');
    }
    for (const url of ['/', '/home']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toMatch(/<div id="root"><h1>Home, render \d+<\/h1>/);
    }
    const product = await listed();
    for (const url of ['/categories', `/category/${product.categoryId}`, '/blog', '/login', '/signup', `/seller/${product.sellerId}`]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toMatch(new RegExp(`<div id="root"><h1>Page ${url}, render \\d+</h1>`));
    }
    // A category or a seller there is not: the app's error page, as for an unknown product.
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const url of ['/category/123', `/category/${unknown}`, '/seller/123', `/seller/${unknown}`]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toContain('<div id="root"></div>');
    }
    for (const url of ['/nowhere', '/dashboard/nowhere', '/product', '/product/a/b', '/categories/extra', '/index.php']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.body, url).toContain('<div id="root"></div>');
    }
  });

  it('keeps answering unknown API paths in the API’s shape', async () => {
    const response = await get('/api/nowhere');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, message: 'No route for GET /api/nowhere' });
  });
});

describe('robots.txt and the sitemap', () => {
  it('serves a robots.txt that keeps crawlers out of private and endless pages and names the sitemap', async () => {
    const response = await get('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toContain('User-agent: *');
    for (const path of ['/dashboard', '/search', '/api/']) expect(response.body).toContain(`Disallow: ${path}\n`);
    // Logging in and signing up are public pages a search engine may show; a crawler sees them as the server renders them.
    for (const path of ['/login', '/signup']) expect(response.body).not.toContain(`Disallow: ${path}`);
    expect(response.body).toContain('Sitemap: https://furniture.example.com/sitemap.xml');
  });

  it('lists the public pages and every available product, and no sold one', async () => {
    const available = await listed();
    const sold = await listed({ inStock: 'sold' });
    const index = await get('/sitemap.xml');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toMatch(/^application\/xml/);
    const files = [...index.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(files).toEqual(['https://furniture.example.com/sitemaps/pages.xml', 'https://furniture.example.com/sitemaps/products-1.xml']);

    const pages = await get('/sitemaps/pages.xml');
    expect([...pages.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])).toEqual([
      'https://furniture.example.com/',
      'https://furniture.example.com/categories',
      'https://furniture.example.com/blog',
    ]);
    const products = await get('/sitemaps/products-1.xml');
    expect(products.statusCode).toBe(200);
    expect(products.body).toContain(`<loc>https://furniture.example.com/product/${available.id}</loc>`);
    expect(products.body).not.toContain(sold.id);
    expect((await get('/sitemaps/products-2.xml')).statusCode).toBe(404);
    expect((await get('/sitemaps/other.xml')).statusCode).toBe(404);
  });
});
