import { documentTitle, matchWebRoute, pageHeads, webRoutes } from '@furniture/contract';
import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** The title of a path the app does not have. */
export const notFoundTitle = 'Page not found';

function setDescription(description: string | undefined) {
  const tag = document.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (tag && description) tag.content = description;
}

/** Sets the tab's title (and description) of whatever page the location shows; a product's page sets its own. */
export function useRouteHead() {
  const { pathname } = useLocation();
  useEffect(() => {
    const route = matchWebRoute(pathname);
    if (route?.pattern === webRoutes.product) return;
    const head = route ? pageHeads[route.pattern] : undefined;
    document.title = head ? documentTitle(head.title) : documentTitle(notFoundTitle);
    setDescription(head?.description);
  }, [pathname]);
}

/** A page that names itself (a product's): its title and description. */
export function usePageHead(title: string, description?: string) {
  useEffect(() => {
    document.title = documentTitle(title);
    setDescription(description);
  }, [title, description]);
}
