import { webRoutes } from '@furniture/contract';

/**
 * Every route of the app, written once. `path` is the router pattern, from the contract's
 * webRoutes, which the server also reads to answer unknown paths with 404; `getHref` builds a link.
 */
export const paths = {
  home: { path: webRoutes.home, getHref: () => '/' },
  homeAlias: { path: webRoutes.homeAlias, getHref: () => '/home' },
  categories: { path: webRoutes.categories, getHref: () => '/categories' },
  category: { path: webRoutes.category, getHref: (id: string) => `/category/${encodeURIComponent(id)}` },
  blog: { path: webRoutes.blog, getHref: () => '/blog' },
  /** `search` is the query string without '?': every filter of the page lives in it. */
  search: {
    path: webRoutes.search,
    getHref: (search: URLSearchParams | Record<string, string> = {}) => {
      const query = new URLSearchParams(search).toString();
      return query ? `/search?${query}` : '/search';
    },
  },
  product: { path: webRoutes.product, getHref: (id: string) => `/product/${encodeURIComponent(id)}` },
  seller: { path: webRoutes.seller, getHref: (id: string) => `/seller/${encodeURIComponent(id)}` },
  login: {
    path: webRoutes.login,
    /** `redirectTo` is where the user returns after signing in. */
    getHref: (redirectTo?: string) =>
      redirectTo && redirectTo !== '/' ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/login',
  },
  signup: { path: webRoutes.signup, getHref: () => '/signup' },
  forgotPassword: { path: webRoutes.forgotPassword, getHref: () => '/forgot-password' },
  resetPassword: { path: webRoutes.resetPassword, getHref: () => '/reset-password' },
  verifyEmail: { path: webRoutes.verifyEmail, getHref: () => '/verify-email' },
  changeEmail: { path: webRoutes.changeEmail, getHref: () => '/change-email' },
  dashboard: {
    root: { path: webRoutes.dashboard.root, getHref: () => '/dashboard' },
    myOrders: { path: webRoutes.dashboard.myOrders, getHref: () => '/dashboard/myOrders' },
    myWishes: { path: webRoutes.dashboard.myWishes, getHref: () => '/dashboard/myWishes' },
    payment: {
      path: webRoutes.dashboard.payment,
      getHref: (bookingId: string) => `/dashboard/payment/${encodeURIComponent(bookingId)}`,
    },
    myProducts: { path: webRoutes.dashboard.myProducts, getHref: () => '/dashboard/myProducts' },
    addProducts: { path: webRoutes.dashboard.addProducts, getHref: () => '/dashboard/addProducts' },
    editProduct: { path: webRoutes.dashboard.editProduct, getHref: (id: string) => `/dashboard/editProduct/${encodeURIComponent(id)}` },
    sellerBookings: { path: webRoutes.dashboard.sellerBookings, getHref: () => '/dashboard/sellerBookings' },
    earnings: { path: webRoutes.dashboard.earnings, getHref: () => '/dashboard/earnings' },
    finance: { path: webRoutes.dashboard.finance, getHref: () => '/dashboard/finance' },
    notifications: { path: webRoutes.dashboard.notifications, getHref: () => '/dashboard/notifications' },
    // The e-mail preferences are a part of Settings; their former address redirects there.
    notificationSettings: { path: webRoutes.dashboard.notificationSettings, getHref: () => '/dashboard/settings#settings-emails' },
    settings: { path: webRoutes.dashboard.settings, getHref: () => '/dashboard/settings' },
    messages: {
      path: webRoutes.dashboard.messages,
      getHref: (conversationId?: string) =>
        conversationId ? `/dashboard/messages?thread=${encodeURIComponent(conversationId)}` : '/dashboard/messages',
    },
    allBuyers: { path: webRoutes.dashboard.allBuyers, getHref: () => '/dashboard/allBuyers' },
    allSellers: { path: webRoutes.dashboard.allSellers, getHref: () => '/dashboard/allSellers' },
    addCategory: { path: webRoutes.dashboard.addCategory, getHref: () => '/dashboard/addCategory' },
    addAdmin: { path: webRoutes.dashboard.addAdmin, getHref: () => '/dashboard/addAdmin' },
    reports: { path: webRoutes.dashboard.reports, getHref: () => '/dashboard/reports' },
    audit: { path: webRoutes.dashboard.audit, getHref: () => '/dashboard/audit' },
  },
} as const;

/** A same-origin path to return to after signing in; anything else falls back to Home. */
export function safeRedirect(target: string | null | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return paths.home.getHref();
  return target;
}
