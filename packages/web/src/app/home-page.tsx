import { SERVER_RENDERED_ATTRIBUTE } from '@furniture/contract';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { provideFirstAnswers } from '../lib/api-client.ts';
import { queryClient } from '../lib/query-client.ts';
import { homeHydrationData, loadHomeData } from './home-data.ts';
import { AppProvider } from './provider.tsx';
import { routes } from './router.tsx';

/** index.html's placeholder inside #root, shown until the app renders over it. */
const BOOT_LOADER = /<div id="root"><div class="boot-loader"[^>]*><span><\/span><\/div><\/div>/;

async function render(indexHtml: string, answers: Record<string, unknown>): Promise<string> {
  provideFirstAnswers(answers);
  try {
    await loadHomeData();
    const router = createMemoryRouter(routes, { initialEntries: ['/'], hydrationData: homeHydrationData() });
    const html = renderToString(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    router.dispose();
    return indexHtml.replace(BOOT_LOADER, () => `<div id="root" ${SERVER_RENDERED_ATTRIBUTE}>${html}</div>`);
  } finally {
    // The cache is the module's own: the next render starts from its own answers, and no
    // clean-up timer (minutes long) outlives the render.
    queryClient.clear();
    provideFirstAnswers({});
  }
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Home as a visitor sees it, from the answers the server gives the page (URL → parsed body):
 * index.html with the navbar, hero, categories, advertised products and footer rendered into
 * #root. The server sends it for Home; the page works as links and a search form before any
 * script, and the app hydrates it on the first interaction (decision 29). Renders run one at a
 * time, since they share the app's query cache.
 */
export function renderHomePage(indexHtml: string, answers: Record<string, unknown>): Promise<string> {
  const rendered = queue.then(() => render(indexHtml, answers));
  queue = rendered.catch(() => undefined);
  return rendered;
}
