import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { queryClient } from '../lib/query-client.ts';
import { AppProvider } from './provider.tsx';
import { routes } from './router.tsx';

/**
 * Home as a visitor first sees it, before any data arrives: the navbar, the hero and the headings.
 * The build puts it into home.html, which the server sends for Home, so the first paint waits for
 * no script; the app then renders the same page in its place, with the categories and the
 * advertised pieces below the fold's top.
 */
export function renderHomeShell(): string {
  const router = createMemoryRouter(routes, { initialEntries: ['/'], hydrationData: { loaderData: { root: [] } } });
  const html = renderToStaticMarkup(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  // Rendering made queries whose clean-up timers (minutes long) would keep the build from exiting.
  router.dispose();
  queryClient.clear();
  return html;
}
