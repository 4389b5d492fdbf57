import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders its (lazy) children once their place comes near the screen, in the browser only: the
 * server, and a page that is never scrolled to them, do not load their code. `fallback` holds the
 * place meanwhile.
 */
export function WhenInView({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const place = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    const element = place.current;
    if (!element) return;
    const watcher = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          watcher.disconnect();
        }
      },
      { rootMargin: '200px' },
    );
    watcher.observe(element);
    return () => watcher.disconnect();
  }, []);

  return near ? <Suspense fallback={fallback}>{children}</Suspense> : <div ref={place}>{fallback}</div>;
}
