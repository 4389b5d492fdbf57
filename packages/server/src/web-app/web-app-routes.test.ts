import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { FIRST_ANSWERS_ELEMENT_ID, ROUTE_PRELOADS_FILE, SERVER_PAGES_MODULE, texts, webRoutes } from '@furniture/contract';
import { setupTestApp } from '../../test/app.ts';
import { createCategory, createProduct, createUser } from '../db/factories.ts';
import { products } from '../db/schema/index.ts';

// A stand-in for the built app's index.html, with the parts the server fills in.
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'furniture-web-'));
fs.writeFileSync(
  path.join(webDir, 'index.html'),
  `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="description" content="The marketplace" /><title>${texts.brand}</title></head><body><div id="root"></div></body></html>`,
);
// A stand-in for the build's module that renders Home and a product's page: it shows what it was
// given and how many times it ran, and fails for a product named "Unrenderable".
fs.mkdirSync(path.join(webDir, path.dirname(SERVER_PAGES_MODULE)));
fs.writeFileSync(
  path.join(webDir, SERVER_PAGES_MODULE),
  `let renders = 0;
const page = (body) => '<!doctype html><html lang="en"><head><meta name="description" content="The marketplace" /><title>${texts.brand}</title></head><body><div id="root">' + body + '</div></body></html>';
const text = (value) => String(value).replace(/[<&]/g, '');
export async function renderPage(pathname, answers) {
  renders += 1;
  if (pathname === '/') {
    const names = answers['/api/advertisement'].data.map((product) => product.productName).join(', ');
    return page('<h1>Home, render ' + renders + '</h1><p>' + text(names) + '</p>');
  }
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

  it('gives a product’s page the product and the config, and every other page the category list only', async () => {
    const product = await listed();
    expect(firstAnswers((await get(`/product/${product.id}`)).body)).toEqual({
      '/api/allCategories': (await get('/api/allCategories')).json(),
      [`/api/products/${product.id}`]: (await get(`/api/products/${product.id}`)).json(),
      '/api/config': (await get('/api/config')).json(),
    });
    expect(Object.keys(firstAnswers((await get('/search?q=sofa')).body)!)).toEqual(['/api/allCategories']);
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

describe('the web app’s other paths', () => {
  it('answers the app’s pages with 200 and every other path with 404 and the app’s error page', async () => {
    for (const url of ['/categories', '/blog', '/search?q=sofa', '/login', '/dashboard', '/dashboard/myOrders', '/dashboard/payment/abc', '/category/123']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<div id="root"></div>');
      expect(head(response.body).title, url).toBe(texts.brand);
    }
    for (const url of ['/', '/home']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toMatch(/<div id="root"><h1>Home, render \d+<\/h1>/);
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
    for (const path of ['/dashboard', '/search', '/login', '/signup', '/api/']) expect(response.body).toContain(`Disallow: ${path}\n`);
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
