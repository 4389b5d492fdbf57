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
  search: '/search',
  product: '/product/:id',
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
    allBuyers: '/dashboard/allBuyers',
    allSellers: '/dashboard/allSellers',
    addCategory: '/dashboard/addCategory',
    addAdmin: '/dashboard/addAdmin',
  },
} as const;

/** Pages anyone may open and search engines may list (category pages need signing in). */
export const publicPages = [webRoutes.home, webRoutes.categories, webRoutes.blog] as const;

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
