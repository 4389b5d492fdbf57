import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/**
 * Starts each newly visited page at the top; Back and Forward leave the scroll position to the
 * browser. (React Router's ScrollRestoration does more, at a kilobyte the first load can spare.)
 */
export function ScrollToTop() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  return null;
}
