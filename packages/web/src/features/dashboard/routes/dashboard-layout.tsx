import { MAX_PAGE_WIDTH_PX, uiTexts } from '@furniture/contract';
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { Navbar, SiteLinks } from '../../../components/navbar.tsx';
import { NavigationProgress } from '../../../components/navigation-progress.tsx';
import { ScrollToTop } from '../../../components/scroll-to-top.tsx';
import { FullPageLoader, Spinner } from '../../../components/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { useDisclosureMenu } from '../../../lib/use-disclosure-menu.ts';
import { useRouteHead } from '../../../lib/page-head.ts';
import { DashboardMenu } from '../components/dashboard-menu.tsx';

/** The dashboard: navbar, the account's menu (a drawer on small screens, with the site's links) and the content. */
export function DashboardLayout() {
  const { user, loading } = useAuth();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const location = useLocation();
  const drawer = useDisclosureMenu();
  useRouteHead();

  // A session that ends while the dashboard is open (expired and not renewable) leads to login.
  useEffect(() => {
    if (!loading && !user && navigation.state === 'idle') {
      void navigate(paths.login.getHref(location.pathname + location.search), { replace: true });
    }
  }, [loading, user, navigation.state, navigate, location.pathname, location.search]);

  if (!user) return <FullPageLoader />;

  return (
    <div className="flex min-h-screen flex-col">
      <NavigationProgress />
      <ScrollToTop />
      <Navbar
        menuToggle={
          <button
            type="button"
            className="btn btn-ghost btn-square lg:hidden"
            aria-label={uiTexts.dashboard.openMenu}
            ref={drawer.toggleRef}
            aria-expanded={drawer.open}
            aria-controls={drawer.menuId}
            onClick={() => drawer.setOpen(true)}
          >
            <svg xmlns="http://www.w3.org/2000/svg" className="h-5 w-5" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
              <path strokeLinecap="round" strokeLinejoin="round" strokeWidth="2" d="M4 6h10M4 12h16M4 18h10" />
            </svg>
          </button>
        }
      />
      <div className="drawer mx-auto w-full flex-1 lg:drawer-open" style={{ maxWidth: MAX_PAGE_WIDTH_PX }}>
        {/* daisyUI's drawer opens from this checkbox's state; the buttons are what people use. */}
        <input type="checkbox" className="drawer-toggle" checked={drawer.open} readOnly tabIndex={-1} aria-hidden="true" />
        <main className="drawer-content p-4 md:p-6" aria-busy={navigation.state === 'loading'}>
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </main>
        <div ref={drawer.regionRef} className="drawer-side z-30 lg:border-r lg:border-base-300">
          <button type="button" aria-label={uiTexts.dashboard.closeMenu} className="drawer-overlay" onClick={() => drawer.setOpen(false)} />
          <div id={drawer.menuId} className="min-h-full bg-base-100">
            <DashboardMenu capabilities={user.capabilities} onNavigate={() => drawer.setOpen(false)} />
            {/* The one menu of a phone: the site's links below the dashboard's. */}
            <nav aria-label={uiTexts.dashboard.siteNavigation} className="border-t border-base-300 lg:hidden">
              <ul className="menu w-64 gap-1 p-4" onClick={() => drawer.setOpen(false)}>
                <SiteLinks />
              </ul>
            </nav>
          </div>
        </div>
      </div>
    </div>
  );
}
