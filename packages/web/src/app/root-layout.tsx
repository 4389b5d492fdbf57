import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Footer } from '../components/footer.tsx';
import { Navbar } from '../components/navbar.tsx';
import { NavigationProgress } from '../components/navigation-progress.tsx';
import { PageContainer } from '../components/page-container.tsx';
import { ScrollToTop } from '../components/scroll-to-top.tsx';
import { Spinner } from '../components/spinner.tsx';
import { useRouteHead } from '../lib/page-head.ts';
import { PageReady } from '../lib/page-ready.ts';
import { useUserRecord } from '../lib/user-record.ts';

/** The public shell: navbar, content and footer. */
export function RootLayout() {
  // The shell loads the signed-in user's record (section 2); pages read it from the cache.
  useUserRecord();
  useRouteHead();
  return (
    <div className="flex min-h-screen flex-col">
      <NavigationProgress />
      <Navbar />
      {/* At least a screen high, so the footer never shows while a page loads and then jumps away. */}
      <main className="min-h-svh flex-1 py-6">
        <PageContainer>
          <Suspense fallback={<Spinner />}>
            <Outlet />
            <PageReady />
          </Suspense>
        </PageContainer>
      </main>
      <Footer />
      <ScrollToTop />
    </div>
  );
}
