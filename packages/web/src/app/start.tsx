import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { startAuth } from '../lib/auth-store.ts';
import { onPageReady } from '../lib/page-ready.ts';
import { AppProvider } from './provider.tsx';
import { routes } from './router.tsx';
import { loadServerRenderedPage } from './server-rendered.ts';
// The app's stylesheet loads with its code; Home's first paint has its own (decision 26).
import '../index.css';

/**
 * Starts the app in #root. A page rendered by the server (every public page) is hydrated: its
 * elements stay, with what was typed into them, and the app takes them over; any other page is
 * rendered in place of the boot loader. `onReady` runs when the app handles events.
 */
export async function startApp(serverRendered: boolean, onReady: () => void = () => undefined) {
  startAuth();
  onPageReady(onReady);
  const container = document.getElementById('root')!;
  const hydrationData = serverRendered ? await loadServerRenderedPage(window.location.pathname + window.location.search) : undefined;
  const router = createBrowserRouter(routes, hydrationData ? { hydrationData } : {});
  const app = (
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>
  );
  if (serverRendered) hydrateRoot(container, app);
  else createRoot(container).render(app);
}
