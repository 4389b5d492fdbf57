import { uiTexts } from '@furniture/contract';
import { redirect, type RouteObject } from 'react-router';
import { ErrorPage, NotFoundRoute } from '../components/error-page.tsx';
import { FullPageLoader } from '../components/spinner.tsx';
import { paths } from '../config/paths.ts';
import { categoriesQuery } from '../lib/categories.ts';
import { requireAdmin, requireCapability, requireUser } from '../lib/guards.ts';
import { queryClient } from '../lib/query-client.ts';
import { RootLayout } from './root-layout.tsx';
// Home is most visits' first page: its code comes with the app's, not a round trip later.
import { HomeRoute } from './routes/home.tsx';

/** A route's code that has not arrived after two minutes counts as failed (section 9). */
const CHUNK_LOAD_TIMEOUT_MS = 120_000;

function load<T>(importer: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(uiTexts.shell.pageLoadTimedOut)), CHUNK_LOAD_TIMEOUT_MS);
  });
  return Promise.race([importer(), timeout]).finally(() => clearTimeout(timer));
}

/** The shell's loader: the category list (GET /allCategories). */
async function rootLoader() {
  try {
    return await queryClient.ensureQueryData(categoriesQuery());
  } catch (error) {
    // Fetch failures are only logged (section 8); pages show what they have.
    console.error(error);
    return [];
  }
}

export const routes: RouteObject[] = [
  {
    id: 'root',
    path: paths.home.path,
    Component: RootLayout,
    ErrorBoundary: ErrorPage,
    HydrateFallback: FullPageLoader,
    loader: rootLoader,
    children: [
      { index: true, Component: HomeRoute },
      { path: paths.homeAlias.path, Component: HomeRoute },
      {
        path: paths.categories.path,
        lazy: () => load(() => import('../features/categories/routes/categories.tsx')).then((m) => ({ Component: m.CategoriesRoute })),
      },
      {
        path: paths.category.path,
        middleware: [requireUser],
        lazy: () =>
          Promise.all([
            load(() => import('./routes/category.tsx')),
            load(() => import('../features/products/api/get-category-products.ts')),
          ]).then(([page, api]) => ({ Component: page.CategoryRoute, HydrateFallback: page.CategoryShell, loader: api.categoryProductsLoader })),
      },
      {
        path: paths.search.path,
        lazy: () => load(() => import('./routes/search.tsx')).then((m) => ({ Component: m.SearchRoute })),
      },
      {
        // Named, as the page is rendered by the server too, which hands the router its loader's answer (server-rendered.ts).
        id: 'product',
        path: paths.product.path,
        lazy: () =>
          Promise.all([load(() => import('./routes/product.tsx')), load(() => import('../features/products/api/get-product.ts'))]).then(
            ([page, api]) => ({ Component: page.ProductRoute, loader: api.productLoader, ErrorBoundary: page.ProductErrorRoute }),
          ),
      },
      {
        path: paths.seller.path,
        lazy: () => load(() => import('./routes/seller.tsx')).then((m) => ({ Component: m.SellerProfileRoute })),
      },
      {
        path: paths.blog.path,
        lazy: () => load(() => import('../features/blog/routes/blog.tsx')).then((m) => ({ Component: m.BlogRoute })),
      },
      {
        path: paths.login.path,
        lazy: () => load(() => import('../features/auth/routes/login.tsx')).then((m) => ({ Component: m.LoginRoute })),
      },
      {
        path: paths.signup.path,
        lazy: () => load(() => import('../features/auth/routes/signup.tsx')).then((m) => ({ Component: m.SignupRoute })),
      },
      {
        path: paths.forgotPassword.path,
        lazy: () => load(() => import('../features/auth/routes/forgot-password.tsx')).then((m) => ({ Component: m.ForgotPasswordRoute })),
      },
      {
        path: paths.resetPassword.path,
        lazy: () => load(() => import('../features/auth/routes/reset-password.tsx')).then((m) => ({ Component: m.ResetPasswordRoute })),
      },
      {
        path: paths.verifyEmail.path,
        lazy: () => load(() => import('../features/auth/routes/verify-email.tsx')).then((m) => ({ Component: m.VerifyEmailRoute })),
      },
      {
        path: paths.changeEmail.path,
        lazy: () => load(() => import('../features/auth/routes/change-email.tsx')).then((m) => ({ Component: m.ChangeEmailRoute })),
      },
      // Inside the shell, so a wrong address keeps the navbar and its search box.
      { path: '*', Component: NotFoundRoute },
    ],
  },
  {
    id: 'dashboard',
    path: paths.dashboard.root.path,
    middleware: [requireUser],
    ErrorBoundary: ErrorPage,
    HydrateFallback: FullPageLoader,
    lazy: () =>
      load(() => import('../features/dashboard/routes/dashboard-layout.tsx')).then((m) => ({ Component: m.DashboardLayout })),
    children: [
      {
        index: true,
        lazy: () =>
          load(() => import('./routes/dashboard-home.tsx')).then((m) => ({ Component: m.DashboardHomeRoute })),
      },
      {
        path: paths.dashboard.notifications.path,
        lazy: () =>
          load(() => import('../features/notifications/routes/notifications.tsx')).then((m) => ({ Component: m.NotificationsRoute })),
      },
      {
        path: paths.dashboard.notificationSettings.path,
        loader: () => redirect(paths.dashboard.notificationSettings.getHref()),
      },
      {
        path: paths.dashboard.settings.path,
        lazy: () => load(() => import('./routes/settings.tsx')).then((m) => ({ Component: m.SettingsRoute })),
      },
      {
        path: paths.dashboard.messages.path,
        lazy: () => load(() => import('./routes/messages.tsx')).then((m) => ({ Component: m.MessagesPage })),
      },
      {
        middleware: [requireCapability('buy')],
        children: [
          {
            path: paths.dashboard.myOrders.path,
            lazy: () => load(() => import('../features/bookings/routes/my-orders.tsx')).then((m) => ({ Component: m.MyOrdersRoute })),
          },
          {
            path: paths.dashboard.myWishes.path,
            lazy: () => load(() => import('./routes/my-wishes.tsx')).then((m) => ({ Component: m.MyWishesRoute })),
          },
          {
            path: paths.dashboard.payment.path,
            lazy: () =>
              Promise.all([
                load(() => import('../features/payments/routes/payment.tsx')),
                load(() => import('../features/payments/api/get-payment-booking.ts')),
              ]).then(([page, api]) => ({ Component: page.PaymentRoute, loader: api.paymentBookingLoader })),
          },
        ],
      },
      {
        middleware: [requireCapability('sell')],
        children: [
          {
            path: paths.dashboard.myProducts.path,
            lazy: () =>
              load(() => import('../features/products/routes/my-products.tsx')).then((m) => ({ Component: m.MyProductsRoute })),
          },
          {
            path: paths.dashboard.addProducts.path,
            lazy: () =>
              load(() => import('../features/products/routes/add-product.tsx')).then((m) => ({ Component: m.AddProductRoute })),
          },
          {
            path: paths.dashboard.editProduct.path,
            lazy: () =>
              load(() => import('../features/products/routes/add-product.tsx')).then((m) => ({ Component: m.EditProductRoute })),
          },
          {
            path: paths.dashboard.sellerBookings.path,
            lazy: () =>
              load(() => import('../features/sales/routes/seller-bookings.tsx')).then((m) => ({ Component: m.SellerBookingsRoute })),
          },
          {
            path: paths.dashboard.earnings.path,
            lazy: () => load(() => import('../features/earnings/routes/earnings.tsx')).then((m) => ({ Component: m.EarningsRoute })),
          },
        ],
      },
      {
        middleware: [requireAdmin],
        children: [
          {
            path: paths.dashboard.allBuyers.path,
            lazy: () => load(() => import('../features/admin/routes/all-buyers.tsx')).then((m) => ({ Component: m.AllBuyersRoute })),
          },
          {
            path: paths.dashboard.allSellers.path,
            lazy: () => load(() => import('../features/admin/routes/all-sellers.tsx')).then((m) => ({ Component: m.AllSellersRoute })),
          },
          {
            path: paths.dashboard.addCategory.path,
            lazy: () =>
              load(() => import('../features/categories/routes/add-category.tsx')).then((m) => ({ Component: m.AddCategoryRoute })),
          },
          {
            path: paths.dashboard.reports.path,
            lazy: () =>
              load(() => import('../features/moderation/routes/reports-queue.tsx')).then((m) => ({ Component: m.ReportsQueueRoute })),
          },
          {
            path: paths.dashboard.audit.path,
            lazy: () => load(() => import('../features/moderation/routes/audit-log.tsx')).then((m) => ({ Component: m.AuditLogRoute })),
          },
          {
            path: paths.dashboard.finance.path,
            lazy: () => load(() => import('../features/admin/routes/finance.tsx')).then((m) => ({ Component: m.FinanceRoute })),
          },
          {
            path: paths.dashboard.addAdmin.path,
            lazy: () => load(() => import('../features/admin/routes/add-admin.tsx')).then((m) => ({ Component: m.AddAdminRoute })),
          },
        ],
      },
      {
        // An unknown dashboard path keeps the dashboard around its 404, with the menu to go on from.
        path: '*',
        lazy: () =>
          load(() => import('../features/dashboard/routes/dashboard-not-found.tsx')).then((m) => ({ Component: m.DashboardNotFoundRoute })),
      },
    ],
  },
];
