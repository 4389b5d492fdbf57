import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ROUTE_PRELOADS_FILE,
  SERVER_PAGES_MODULE,
  apiSearchOf,
  idSchema,
  matchWebRoute,
  publicPages,
  searchProductsPath,
  serverMessages,
  serverRenderedRoutes,
  webRoutes,
  type ProductDetails,
  type WebRouteMatch,
} from '@furniture/contract';
import type { WatchedTable } from '../cache/data-versions.ts';
import { acceptedEncoding, compressors } from '../cache/compression.ts';
import { findCategoryById } from '../categories/category-repository.ts';
import { countPublicProducts, listPublicProductPages } from '../products/product-repository.ts';
import { countsAView } from '../products/product-views.ts';
import { productPageMeta, withFirstAnswers, withPageMeta, withRouteHead } from './page-meta.ts';

/** A sitemap file holds at most this many addresses (the sitemaps protocol's limit). */
export const SITEMAP_PAGE_SIZE = 50_000;

const xmlEscape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

interface ServerPagesModule {
  renderPage(location: string, answers: Record<string, unknown>): Promise<string>;
}

/**
 * How many rendered pages are cached: Home and the products and searches viewed last. A product's
 * page is some 20 KB of HTML, a search's some 80 KB (24 cards), so they hold at most some 8 MB.
 */
export const KEPT_PAGE_RENDERS = 100;

/**
 * A public page's HTML (Home, a product's, a search's, ...) for its location (path and query string) and the
 * answers of its reads (URL → body), from the web build's module. Renders are cached while their
 * answers stay the same, since those change only when someone writes, the most recently used
 * first. Null without the module. The module (React's server renderer and the app, some 40 MB)
 * loads with the first request for such a page, not with the server, so start and an idle server
 * stay as they were.
 */
function pageRenderer(webDistDir: string) {
  const file = path.join(webDistDir, SERVER_PAGES_MODULE);
  if (!fs.existsSync(file)) return null;
  let module: Promise<ServerPagesModule> | undefined;
  const kept = new Map<string, Promise<string>>();
  return (location: string, answers: Map<string, string>): Promise<string> => {
    const key = [location, ...[...answers].flat()].join('\n');
    let html = kept.get(key);
    if (html) {
      kept.delete(key);
    } else {
      module ??= import(pathToFileURL(file).href) as Promise<ServerPagesModule>;
      const parsed = Object.fromEntries([...answers].map(([url, body]) => [url, JSON.parse(body) as unknown]));
      const rendered = module.then((loaded) => loaded.renderPage(location, parsed));
      html = rendered;
      // A failed render is not cached: the next request tries again.
      rendered.catch(() => {
        if (kept.get(key) === rendered) kept.delete(key);
      });
      // The page's earlier renders, for answers since changed, will not be asked for again.
      for (const [other] of kept) if (other.startsWith(`${location}\n`)) kept.delete(other);
      if (kept.size >= KEPT_PAGE_RENDERS) kept.delete(kept.keys().next().value!);
    }
    kept.set(key, html);
    return html;
  };
}

/**
 * A page of the not-found handler, compressed when the browser accepts it (as cached answers are,
 * with the same encoders): the compression plugin serves routes through their hooks, and that
 * handler has none.
 */
async function sendHtml(reply: FastifyReply, status: number, html: string) {
  reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  const encoding = acceptedEncoding(reply.request.headers['accept-encoding']);
  if (!encoding) return reply.send(html);
  return reply.header('content-encoding', encoding).send(await compressors[encoding](Buffer.from(html)));
}

/**
 * The tables the pages the server renders are cached under in the response cache: those of the API
 * reads answered into them (the category list, the advertised products, a product's page, a
 * search), together.
 */
const RENDERED_PAGE_TABLES: readonly WatchedTable[] = ['categories', 'products', 'users', 'search_terms', 'reviews'];

/**
 * The server's own reads for a page name it a bot, so that a product's API answer read for its page
 * counts no view: the page's own answer counts the visitor's (or not, for a crawler).
 */
const PAGE_READS_USER_AGENT = 'furniture-page-reads (bot)';

const isHome = (route: WebRouteMatch) => route.pattern === webRoutes.home || route.pattern === webRoutes.homeAlias;

/**
 * The API read of a page's own data, answered by the API's 404 or 410 when the page has nothing to
 * show (a product no longer listed, a seller unknown or suspended): then so is the page.
 */
function ownRead(route: WebRouteMatch): string | undefined {
  if (route.pattern === webRoutes.product) return `/api/products/${encodeURIComponent(route.params.id!)}`;
  if (route.pattern === webRoutes.seller) return `/api/sellers/${encodeURIComponent(route.params.id!)}`;
  return undefined;
}

/**
 * The API reads a page of the app makes as soon as it starts: the shell's category list, and the
 * page's own data. `search` is the page's query string, without its `?`.
 */
function firstReads(route: WebRouteMatch, search: string): string[] {
  const reads = ['/api/allCategories'];
  if (!serverRenderedRoutes.includes(route.pattern)) return reads;
  // Pages rendered on the server are rendered footer included: its social links come from the config.
  reads.push('/api/config');
  if (isHome(route)) reads.push('/api/advertisement');
  const own = ownRead(route);
  if (own) reads.push(own);
  // Search's first page of results, under the very URL the app asks for.
  if (route.pattern === webRoutes.search) reads.push(`/api${searchProductsPath(apiSearchOf(new URLSearchParams(search)))}`);
  return reads;
}

/**
 * Serves the built web app: hashed assets cached for a year, precompressed; index.html for every path the app
 * has (webRoutes), and with status 404 for every other, so the app shows its error page and
 * crawlers see the truth. Every public page (serverRenderedRoutes) is sent rendered with React from
 * its first answers (decision 29), and cached, as sent, by the response cache. A page's first API
 * reads are answered into its HTML (through the API itself, so from its response cache), so its
 * first paint waits for no request after the scripts. A product's page gets its title,
 * description, preview tags and structured data inserted too. Also robots.txt and the sitemap.
 * Unknown /api paths answer 404 in the API's shape.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string) {
  const indexFile = path.join(webDistDir, 'index.html');
  const indexHtml = fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : null;
  const renderPage = indexHtml ? pageRenderer(webDistDir) : null;
  const preloadsFile = path.join(webDistDir, ROUTE_PRELOADS_FILE);
  // Route pattern → the preload links of the code the app loads for it (the build's list).
  const routePreloads = new Map(
    Object.entries(fs.existsSync(preloadsFile) ? (JSON.parse(fs.readFileSync(preloadsFile, 'utf8')) as Record<string, string[]>) : {}).map(
      ([route, files]) => [route, files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ')],
    ),
  );
  const { publicUrl } = app.config;

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of every text file; the one the browser accepts is sent.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) => {
    const lines = [
      'User-agent: *',
      `Disallow: ${webRoutes.dashboard.root}`,
      `Disallow: ${webRoutes.search}`,
      'Disallow: /api/',
      '',
      `Sitemap: ${publicUrl}/sitemap.xml`,
      '',
    ];
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(lines.join('\n'));
  });

  // The sitemap index: the public pages, then every available product, 50,000 to a file.
  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const productFiles = Math.ceil((await countPublicProducts(app.db)) / SITEMAP_PAGE_SIZE);
    const files = ['/sitemaps/pages.xml', ...Array.from({ length: productFiles }, (_, index) => `/sitemaps/products-${index + 1}.xml`)];
    const body = files.map((file) => `  <sitemap><loc>${xmlEscape(publicUrl + file)}</loc></sitemap>`).join('\n');
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`);
  });

  app.get('/sitemaps/pages.xml', { schema: { hide: true } }, async (_request, reply) =>
    sendUrlSet(reply, publicPages.map((page) => ({ loc: `${publicUrl}${page === '/' ? '/' : page}` }))),
  );

  app.get<{ Params: { file: string } }>(
    '/sitemaps/:file',
    { schema: { hide: true } },
    async (request, reply) => {
      const page = /^products-([1-9]\d{0,5})\.xml$/.exec(request.params.file);
      if (!page) return notFoundPage(request.url, reply);
      const rows = await listPublicProductPages(app.db, { limit: SITEMAP_PAGE_SIZE, offset: (Number(page[1]) - 1) * SITEMAP_PAGE_SIZE });
      if (rows.length === 0) return notFoundPage(request.url, reply);
      return sendUrlSet(
        reply,
        rows.map((row) => ({ loc: `${publicUrl}/product/${row.id}`, lastmod: row.postedAt.toISOString() })),
      );
    },
  );

  function sendUrlSet(reply: FastifyReply, urls: { loc: string; lastmod?: string }[]) {
    const body = urls
      .map(({ loc, lastmod }) => `  <url><loc>${xmlEscape(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`)
      .join('\n');
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`);
  }

  async function categoryExists(id: string) {
    return idSchema.safeParse(id).success && (await findCategoryById(app.db, id)) !== undefined;
  }

  function notFoundPage(url: string, reply: FastifyReply) {
    if (!indexHtml) return reply.status(404).send({ success: false, message: serverMessages.noPage(url.split('?')[0]!) });
    return sendHtml(reply, 404, indexHtml);
  }

  /**
   * A page of the app as it is sent for a path the app has (`search`: its query string, without
   * its `?`): status, HTML, and whether it may be cached (one whose render failed is not, so the next
   * request tries again).
   */
  async function pageOf(request: FastifyRequest, pathname: string, search: string, route: WebRouteMatch) {
    const reads = firstReads(route, search);
    const { answers, refusals } = await readFirst(reads);
    const own = ownRead(route);
    const details = route.pattern === webRoutes.product ? answers.get(own!) : undefined;
    // A listing no longer public: the API said 410, and so does its page; an unknown or malformed
    // id, of a listing or a seller, 404; so does an unknown category's page.
    if (own && !answers.has(own)) return { status: refusals.get(own) === 410 ? 410 : 404, html: indexHtml!, keep: false };
    if (route.pattern === webRoutes.category && !(await categoryExists(route.params.id!))) return { status: 404, html: indexHtml!, keep: false };
    // The public pages are rendered from their reads' answers; should one fail (a
    // search's bad parameters: 400), or the render, the app renders the page in the browser, its
    // route's code preloaded as for any other. Search's render is its query string's too.
    const location = isHome(route) ? webRoutes.home : route.pattern === webRoutes.search && search ? `${pathname}?${search}` : pathname;
    const rendered =
      serverRenderedRoutes.includes(route.pattern) && renderPage && answers.size === reads.length
        ? await renderPage(location, answers).catch((error: unknown) => {
            request.log.error(error);
            return null;
          })
        : null;
    const preloads = routePreloads.get(route.pattern);
    const page = rendered ?? (preloads ? indexHtml!.replace('</head>', () => `  ${preloads}\n  </head>`) : indexHtml!);
    const html = withFirstAnswers(page, answers);
    const keep = rendered !== null && answers.size === reads.length;
    if (!details) return { status: 200, html: withRouteHead(html, route.pattern), keep };
    const product = (JSON.parse(details) as { data: ProductDetails }).data;
    return { status: 200, html: withPageMeta(html, productPageMeta(product, publicUrl)), keep };
  }

  // The pages the server renders are routes of their own, so the response cache keeps each as it
  // is sent, compressed copies and ETag included, and sends it again from memory while the tables
  // its reads read stay the same (decision 29).
  if (indexHtml && renderPage) {
    for (const pattern of serverRenderedRoutes) {
      app.get(
        pattern,
        {
          schema: { hide: true },
          config: {
            access: 'public',
            cache: {
              tables: RENDERED_PAGE_TABLES,
              // The browser asks again on every visit, and gets 304 while the page is the same.
              cacheControl: 'no-cache',
              ...(pattern === webRoutes.product ? { onAnswer: countsAView(app) } : {}),
            },
          },
        },
        async (request, reply) => {
          const [pathname = '', search = ''] = request.url.split(/\?(.*)/s);
          const page = await pageOf(request, pathname, search, { pattern, params: request.params as Record<string, string> });
          if (!page.keep) request.cacheVersions = null;
          return reply.status(page.status).type('text/html; charset=utf-8').send(page.html);
        },
      );
    }
  }

  app.setNotFoundHandler(async (request, reply) => {
    const [pathname = '', search = ''] = request.url.split(/\?(.*)/s);
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api');
    if (!isPage || !indexHtml) {
      return reply.status(404).send({ success: false, message: serverMessages.noRoute(request.method, pathname) });
    }
    const route = matchWebRoute(pathname);
    if (!route) return sendHtml(reply, 404, indexHtml);
    const page = await pageOf(request, pathname, search, route);
    return sendHtml(reply, page.status, page.html);
  });

  /**
   * The bodies of the reads that succeeded, by URL, and the statuses of those that did not; a
   * failed one is left to the app to ask again.
   */
  async function readFirst(urls: string[]): Promise<{ answers: Map<string, string>; refusals: Map<string, number> }> {
    const responses = await Promise.all(
      urls.map((url) => app.inject({ method: 'GET', url, headers: { accept: 'application/json', 'user-agent': PAGE_READS_USER_AGENT } })),
    );
    const read = (ok: boolean) => responses.flatMap((response, index) => ((response.statusCode === 200) === ok ? [[urls[index]!, response] as const] : []));
    return {
      answers: new Map(read(true).map(([url, response]) => [url, response.body])),
      refusals: new Map(read(false).map(([url, response]) => [url, response.statusCode])),
    };
  }
}
