import { documentTitle, FIRST_ANSWERS_ELEMENT_ID, pageHeads, texts, type Product } from '@furniture/contract';

/** Text for an HTML attribute or element: nothing inserted can open a tag or close an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** JSON inside <script>: `<` is escaped so no value can close the script element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const DESCRIPTION_MAX = 160;

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

const absolute = (url: string, publicUrl: string) => new URL(url, `${publicUrl}/`).toString();

export interface PageMeta {
  title: string;
  description: string;
  /** Extra tags for the head: Open Graph, Twitter and structured data. */
  head: string;
}

/** The head of a product's page: what a shared link previews and what search engines index. */
export function productPageMeta(product: Product, publicUrl: string): PageMeta {
  const url = `${publicUrl}/product/${encodeURIComponent(product._id)}`;
  const price = product.resalePrice.toFixed(2);
  const title = `${product.productName} – $${price} – ${texts.brand}`;
  const description = shorten(`${product.condition} condition, ${product.location}. ${product.description}`, DESCRIPTION_MAX);
  const images = product.photos.map((photo) => absolute(photo, publicUrl));
  const structured = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.productName,
    description: product.description,
    image: images,
    category: product.categoryName,
    url,
    additionalProperty: { '@type': 'PropertyValue', name: 'Condition', value: product.condition },
    offers: {
      '@type': 'Offer',
      url,
      price,
      priceCurrency: 'USD',
      availability: product.inStock === 'available' ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
      itemCondition: 'https://schema.org/UsedCondition',
      seller: { '@type': 'Person', name: product.sellerName },
    },
  };
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;
  const head = [
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    meta('property', 'og:type', 'product'),
    meta('property', 'og:site_name', texts.brand),
    meta('property', 'og:title', product.productName),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    ...images.slice(0, 1).map((image) => meta('property', 'og:image', image)),
    meta('property', 'og:image:alt', product.productName),
    meta('property', 'product:price:amount', price),
    meta('property', 'product:price:currency', 'USD'),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', product.productName),
    meta('name', 'twitter:description', description),
    ...images.slice(0, 1).map((image) => meta('name', 'twitter:image', image)),
    `<script type="application/ld+json">${scriptJson(structured)}</script>`,
  ].join('\n    ');
  return { title, description, head };
}

/** The app's index.html with a page's title and, when given, its description put in. */
function titled(indexHtml: string, title: string, description: string | undefined): string {
  const withTitle = indexHtml.replace(/<title>[\s\S]*?<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
  if (description === undefined) return withTitle;
  return withTitle.replace(/<meta\s+name="description"[^>]*>/, () => `<meta name="description" content="${escapeHtml(description)}" />`);
}

/** The app's index.html with a page's title, description and extra head tags put in. */
export function withPageMeta(indexHtml: string, meta: PageMeta): string {
  return titled(indexHtml, meta.title, meta.description).replace('</head>', () => `  ${meta.head}\n  </head>`);
}

/**
 * The app's index.html (or a page rendered into it) titled and described as the app titles the
 * route's page once it runs (`pageHeads`): a page the server renders is hydrated only on the first
 * interaction, and a crawler reads the HTML alone.
 */
export function withRouteHead(indexHtml: string, pattern: string): string {
  const head = pageHeads[pattern];
  return head ? titled(indexHtml, documentTitle(head.title), head.description) : indexHtml;
}

/**
 * The app's index.html with API answers put in, by URL, as a JSON data block: the browser never
 * runs it, so the Content Security Policy's script rules do not apply. The bodies are JSON already;
 * escaping `<` keeps any value from closing the element.
 */
export function withFirstAnswers(indexHtml: string, answers: Map<string, string>): string {
  if (answers.size === 0) return indexHtml;
  const json = `{${[...answers].map(([url, body]) => `${JSON.stringify(url)}:${body}`).join(',')}}`.replace(/</g, '\\u003c');
  return indexHtml.replace('</body>', () => `<script type="application/json" id="${FIRST_ANSWERS_ELEMENT_ID}">${json}</script>\n  </body>`);
}
