import { uiTexts } from '@furniture/contract';

/** A loading indicator that screen readers announce. */
export function Spinner({ label = uiTexts.loading, className = '' }: { label?: string; className?: string }) {
  return (
    <div role="status" className={`flex justify-center py-10 ${className}`}>
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** Covers the page while the app or a whole route tree is loading. */
export function FullPageLoader() {
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-base-100" data-testid="full-page-loader">
      <Spinner />
    </div>
  );
}
