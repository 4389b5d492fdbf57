import { SERVER_RENDERED_ATTRIBUTE, SHELL_RENDERED_ATTRIBUTE, webRoutes } from '@furniture/contract';
import fs from 'node:fs';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { provideFirstAnswers } from '../lib/api-client.ts';
import { queryClient } from '../lib/query-client.ts';
import { AppProvider } from './provider.tsx';
import { routes } from './router.tsx';
import { loadServerRenderedPage } from './server-rendered.ts';

/** index.html's placeholder inside #root, shown until the app renders over it. */
const BOOT_LOADER = /<div id="root"><div class="boot-loader"[^>]*><span><\/span><\/div><\/div>/;

/**
 * index.html as built without the app's preloads (the build writes both beside this module): Home's
 * links Home's own stylesheet (decision 26), every other page's the app's.
 */
const templates = {
  home: fs.readFileSync(new URL('./home.html', import.meta.url), 'utf8'),
  page: fs.readFileSync(new URL('./page.html', import.meta.url), 'utf8'),
};

async function render(location: string, answers: Record<string, unknown>): Promise<string> {
  provideFirstAnswers(answers);
  try {
    const hydrationData = await loadServerRenderedPage(location);
    const router = createMemoryRouter(routes, { initialEntries: [location], hydrationData });
    // A route still to load (a category's products, behind its guard) is rendered as its fallback.
    const attributes = router.state.initialized ? SERVER_RENDERED_ATTRIBUTE : `${SERVER_RENDERED_ATTRIBUTE} ${SHELL_RENDERED_ATTRIBUTE}`;
    const html = renderToString(
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>,
    );
    router.dispose();
    const template = location === webRoutes.home ? templates.home : templates.page;
    return template.replace(BOOT_LOADER, () => `<div id="root" ${attributes}>${html}</div>`);
  } finally {
    // The cache is the module's own: the next render starts from its own answers, and no
    // clean-up timer (minutes long) outlives the render.
    queryClient.clear();
    provideFirstAnswers({});
  }
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * A page as a visitor sees it (Home, at '/', any other public page, search's with its query string), from
 * the answers the server gives the page (URL → parsed body): index.html, without the app's
 * preloads, with the page rendered into #root. The server sends it; it works as links and a search
 * form before any script, and the app hydrates it on the first interaction (decision 29). Renders
 * run one at a time, since they share the app's query cache.
 */
export function renderPage(location: string, answers: Record<string, unknown>): Promise<string> {
  const rendered = queue.then(() => render(location, answers));
  queue = rendered.catch(() => undefined);
  return rendered;
}
