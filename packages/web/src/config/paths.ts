/** Every route of the app, written once. `path` is the router pattern; `getHref` builds a link. */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  homeAlias: { path: '/home', getHref: () => '/home' },
  categories: { path: '/categories', getHref: () => '/categories' },
  category: { path: '/category/:id', getHref: (id: string) => `/category/${encodeURIComponent(id)}` },
  blog: { path: '/blog', getHref: () => '/blog' },
  login: {
    path: '/login',
    /** `redirectTo` is where the user returns after signing in. */
    getHref: (redirectTo?: string) =>
      redirectTo && redirectTo !== '/' ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/login',
  },
  signup: { path: '/signup', getHref: () => '/signup' },
  dashboard: {
    root: { path: '/dashboard', getHref: () => '/dashboard' },
    myOrders: { path: '/dashboard/myOrders', getHref: () => '/dashboard/myOrders' },
    myWishes: { path: '/dashboard/myWishes', getHref: () => '/dashboard/myWishes' },
    payment: {
      path: '/dashboard/payment/:bookingId',
      getHref: (bookingId: string) => `/dashboard/payment/${encodeURIComponent(bookingId)}`,
    },
    myProducts: { path: '/dashboard/myProducts', getHref: () => '/dashboard/myProducts' },
    addProducts: { path: '/dashboard/addProducts', getHref: () => '/dashboard/addProducts' },
    allBuyers: { path: '/dashboard/allBuyers', getHref: () => '/dashboard/allBuyers' },
    allSellers: { path: '/dashboard/allSellers', getHref: () => '/dashboard/allSellers' },
    addCategory: { path: '/dashboard/addCategory', getHref: () => '/dashboard/addCategory' },
    addAdmin: { path: '/dashboard/addAdmin', getHref: () => '/dashboard/addAdmin' },
  },
} as const;

/** A same-origin path to return to after signing in; anything else falls back to Home. */
export function safeRedirect(target: string | null | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return paths.home.getHref();
  return target;
}
