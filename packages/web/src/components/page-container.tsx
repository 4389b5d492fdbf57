import { MAX_PAGE_WIDTH_PX } from '@furniture/contract';
import type { ReactNode } from 'react';

/** Centres content and caps its width at the maximum page width of section 9. */
export function PageContainer({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <div className={`mx-auto w-full px-4 ${className}`} style={{ maxWidth: MAX_PAGE_WIDTH_PX }}>
      {children}
    </div>
  );
}
