import { SERVER_RENDERED_ATTRIBUTE } from '@furniture/contract';
import fs from 'node:fs';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { provideFirstAnswers } from '../lib/api-client.ts';
import { queryClient } from '../lib/query-client.ts';
import { homeHydrationData, loadHomeData } from './home-data.ts';
import { AppProvider } from './provider.tsx';
import { routes } from './router.tsx';

/** index.html's placeholder inside #root, shown until the app renders over it. */
const BOOT_LOADER = /<div id="root"><div class="boot-loader"[^>]*><span><\/span><\/div><\/div>/;

/** index.html as built, without the app's preloads (the build writes it beside this module). */
const template = fs.readFileSync(new URL('./home.html', import.meta.url), 'utf8');

async function render(answers: Record<string, unknown>): Promise<string> {
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
    return template.replace(BOOT_LOADER, () => `<div id="root" ${SERVER_RENDERED_ATTRIBUTE}>${html}</div>`);
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
 * index.html (without the app's preloads) with the navbar, hero, categories, advertised products and footer rendered into
 * #root. The server sends it for Home; the page works as links and a search form before any
 * script, and the app hydrates it on the first interaction (decision 29). Renders run one at a
 * time, since they share the app's query cache.
 */
export function renderHomePage(answers: Record<string, unknown>): Promise<string> {
  const rendered = queue.then(() => render(answers));
  queue = rendered.catch(() => undefined);
  return rendered;
}
