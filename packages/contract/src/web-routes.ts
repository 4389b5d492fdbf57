import { accountTexts } from './account-texts.ts';
import { conversationTexts } from './conversation-texts.ts';
import { texts } from './messages.ts';
import { notificationScreenTexts } from './notification-texts.ts';
import { saleTexts } from './sale-texts.ts';
import { trustWebTexts } from './trust-texts.ts';
import { financeTexts } from './finance-texts.ts';

/**
 * Every path pattern of the web app, written once: the web app's router is built from them, and
 * the server answers exactly these with the app (status 200) and every other path with the app's
 * error page (status 404). `:name` stands for one path segment.
 */
export const webRoutes = {
  home: '/',
  homeAlias: '/home',
  categories: '/categories',
  category: '/category/:id',
  blog: '/blog',
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  changeEmail: '/change-email',
  search: '/search',
  product: '/product/:id',
  seller: '/seller/:id',
  dashboard: {
    root: '/dashboard',
    myOrders: '/dashboard/myOrders',
    myWishes: '/dashboard/myWishes',
    payment: '/dashboard/payment/:bookingId',
    myProducts: '/dashboard/myProducts',
    addProducts: '/dashboard/addProducts',
    editProduct: '/dashboard/editProduct/:id',
    sellerBookings: '/dashboard/sellerBookings',
    messages: '/dashboard/messages',
    notifications: '/dashboard/notifications',
    notificationSettings: '/dashboard/notificationSettings',
    settings: '/dashboard/settings',
    allBuyers: '/dashboard/allBuyers',
    allSellers: '/dashboard/allSellers',
    addCategory: '/dashboard/addCategory',
    addAdmin: '/dashboard/addAdmin',
    reports: '/dashboard/reports',
    audit: '/dashboard/audit',
    earnings: '/dashboard/earnings',
    finance: '/dashboard/finance',
  },
} as const;

/** Pages anyone may open and search engines may list (category pages need signing in). */
export const publicPages = [webRoutes.home, webRoutes.categories, webRoutes.blog] as const;

/**
 * The id of the JSON data block in which the server hands a page the answers to its first API
 * reads, by URL (`/api/...`), so the app can paint without asking for them again.
 */
export const FIRST_ANSWERS_ELEMENT_ID = 'first-answers';

/**
 * The web build's module that renders the pages the server sends rendered (Home, a product's page
 * and search) with React, inside the build (dot folders are not served).
 */
export const SERVER_PAGES_MODULE = '.server/server-pages.js';

/**
 * The web build's list of the code each landing page's route loads lazily (route pattern → asset
 * paths), which the server preloads in that page's HTML so that it comes with the app's, not after it.
 */
export const ROUTE_PRELOADS_FILE = '.server/route-preloads.json';

/**
 * The pages the server sends rendered with React (decision 29), every public one: the app hydrates
 * them. A category's page needs signing in, so it is sent as its shell, its products loaded by the app.
 */
export const serverRenderedRoutes: readonly string[] = [
  webRoutes.home,
  webRoutes.homeAlias,
  webRoutes.categories,
  webRoutes.category,
  webRoutes.blog,
  webRoutes.login,
  webRoutes.signup,
  webRoutes.search,
  webRoutes.product,
  webRoutes.seller,
];

/** Marks the page's #root as holding a page rendered by the server, which the app hydrates rather than replaces. */
export const SERVER_RENDERED_ATTRIBUTE = 'data-server-rendered';

/**
 * Marks a page rendered by the server only in part (a category's shell): its content needs the app
 * and the signed-in user, so the app starts at once rather than on the first interaction.
 */
export const SHELL_RENDERED_ATTRIBUTE = 'data-shell-rendered';

/**
 * What the bar across the top of the page says while a page or a tap waits to load: the page's
 * first script shows it for a tap made before the app has loaded, the app for a route loading.
 */
export const LOADING_PAGE_TEXT = 'Loading page';

type Patterns = { [name: string]: string | Patterns };

function allPatterns(routes: Patterns): string[] {
  return Object.values(routes).flatMap((value) => (typeof value === 'string' ? [value] : allPatterns(value)));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const matchers = allPatterns(webRoutes).map((pattern) => {
  const names: string[] = [];
  const source = (pattern === '/' ? '' : pattern)
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return escapeRegExp(segment);
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { pattern, names, regex: new RegExp(`^${source}/?$`) };
});

export interface WebRouteMatch {
  pattern: string;
  params: Record<string, string>;
}

/** The web app's route a path belongs to, with its parameters (decoded); null for a path it does not have. */
export function matchWebRoute(pathname: string): WebRouteMatch | null {
  for (const { pattern, names, regex } of matchers) {
    const found = regex.exec(pathname);
    if (!found) continue;
    try {
      return { pattern, params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1]!)])) };
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Each page's own title (the brand follows it in the browser's tab) and, for pages anyone may
 * open, its description for search results. A product's page is titled by the product.
 */
export const pageHeads: Record<string, { title: string; description?: string }> = {
  [webRoutes.home]: {
    title: 'Used furniture to buy and sell',
    description: 'Buy and sell used furniture: browse categories, wish, book and pay for pre-loved pieces.',
  },
  [webRoutes.homeAlias]: { title: 'Used furniture to buy and sell' },
  [webRoutes.categories]: { title: 'Furniture categories', description: 'Every kind of used furniture on sale: sofas, beds, tables, chairs and more.' },
  [webRoutes.category]: { title: 'Available products', description: 'Used furniture of one kind on sale now, available pieces first.' },
  [webRoutes.blog]: { title: 'Blog', description: 'Answers to common questions about how the marketplace is built.' },
  [webRoutes.login]: { title: 'Log in', description: 'Log in to wish, book and pay for used furniture, or to sell yours.' },
  [webRoutes.signup]: { title: 'Sign up', description: 'Open an account to buy or sell used furniture.' },
  [webRoutes.forgotPassword]: { title: accountTexts.forgot.title },
  [webRoutes.resetPassword]: { title: accountTexts.reset.title },
  [webRoutes.verifyEmail]: { title: accountTexts.verify.title },
  [webRoutes.changeEmail]: { title: accountTexts.changeEmail.title },
  [webRoutes.search]: { title: 'Search furniture', description: 'Find used furniture by words, price, condition, place and size.' },
  [webRoutes.seller]: { title: 'Seller', description: 'A seller’s ratings, reviews and furniture for sale.' },
  [webRoutes.dashboard.root]: { title: 'Dashboard' },
  [webRoutes.dashboard.myOrders]: { title: 'My Orders' },
  [webRoutes.dashboard.myWishes]: { title: 'My Wishes' },
  [webRoutes.dashboard.payment]: { title: 'Payment' },
  [webRoutes.dashboard.myProducts]: { title: 'My Products' },
  [webRoutes.dashboard.addProducts]: { title: 'Add Product' },
  [webRoutes.dashboard.editProduct]: { title: saleTexts.editTitle },
  [webRoutes.dashboard.sellerBookings]: { title: saleTexts.sellerBookingsTitle },
  [webRoutes.dashboard.messages]: { title: conversationTexts.messagesTitle },
  [webRoutes.dashboard.notifications]: { title: notificationScreenTexts.title },
  [webRoutes.dashboard.notificationSettings]: { title: notificationScreenTexts.settingsTitle },
  [webRoutes.dashboard.settings]: { title: accountTexts.settings.title },
  [webRoutes.dashboard.reports]: { title: trustWebTexts.queueTitle },
  [webRoutes.dashboard.audit]: { title: trustWebTexts.auditTitle },
  [webRoutes.dashboard.finance]: { title: financeTexts.title },
  [webRoutes.dashboard.allBuyers]: { title: 'All Buyers' },
  [webRoutes.dashboard.allSellers]: { title: 'All Sellers' },
  [webRoutes.dashboard.addCategory]: { title: 'Add Category' },
  [webRoutes.dashboard.addAdmin]: { title: 'Add Admin' },
};

/** The text of a page's <title>: its own title, then the brand. */
export const documentTitle = (pageTitle: string) => `${pageTitle} – ${texts.brand}`;
