import { labels, MAX_PAGE_WIDTH_PX, messages, texts, uiTexts } from '@furniture/contract';
import type { ReactNode } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { paths } from '../config/paths.ts';
import { useAuth } from '../lib/auth.tsx';
import { errorMessage, notify } from '../lib/notify.ts';
import { useDisclosureMenu } from '../lib/use-disclosure-menu.ts';
import { NotificationBell } from '../features/notifications/components/notification-bell.tsx';
import { VerifyEmailBanner } from './verify-email-banner.tsx';
import { LocationControl } from './location-control.tsx';
import { SearchBox } from './search-box.tsx';

const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'menu-active font-semibold' : '');

/** The site's own pages, as menu items; the dashboard's drawer lists them on small screens. */
export function SiteLinks({ withDashboard = false }: { withDashboard?: boolean }) {
  const { user } = useAuth();
  return (
    <>
      <li>
        <NavLink to={paths.home.getHref()} end className={linkClass}>
          {labels.nav.home}
        </NavLink>
      </li>
      <li>
        <NavLink to={paths.categories.getHref()} className={linkClass}>
          {labels.nav.categories}
        </NavLink>
      </li>
      <li>
        <NavLink to={paths.blog.getHref()} className={linkClass}>
          {labels.nav.blog}
        </NavLink>
      </li>
      {withDashboard && user && (
        <li>
          <NavLink to={paths.dashboard.root.getHref()} className={linkClass}>
            {labels.nav.dashboard}
          </NavLink>
        </li>
      )}
    </>
  );
}

/** The site's links folded into a menu button, below the width where they fit in the bar. */
function SiteMenu() {
  const menu = useDisclosureMenu<HTMLElement, HTMLDetailsElement>();
  return (
    <details
      ref={menu.regionRef}
      className="dropdown lg:hidden"
      open={menu.open}
      onToggle={(event) => menu.setOpen(event.currentTarget.open)}
    >
      <summary
        ref={menu.toggleRef}
        className="btn btn-ghost btn-square"
        aria-label={uiTexts.shell.openNavigation}
        aria-expanded={menu.open}
        aria-controls={menu.menuId}
      >
        <svg xmlns="http://www.w3.org/2000/svg" className="h-5 w-5" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
          <path strokeLinecap="round" strokeLinejoin="round" strokeWidth="2" d="M4 6h16M4 12h16M4 18h16" />
        </svg>
      </summary>
      {/* Following a link closes the menu; the links themselves are shared with the wide layout. */}
      <ul
        id={menu.menuId}
        className="menu dropdown-content z-20 mt-2 w-52 rounded-box bg-base-100 p-2 shadow"
        onClick={(event) => {
          if ((event.target as Element).closest('a')) menu.setOpen(false);
        }}
      >
        <SiteLinks withDashboard />
      </ul>
    </details>
  );
}

/**
 * The top bar of both layouts. On small screens the site's links fold into a menu; the dashboard
 * passes its own `menuToggle` instead, whose drawer holds the site's links too, so a phone shows
 * one menu button, never two alike.
 */
export function Navbar({ menuToggle }: { menuToggle?: ReactNode }) {
  const { user, unreachable, signOut } = useAuth();
  const navigate = useNavigate();
  // The search page holds the location control among its own controls.
  const onSearchPage = useLocation().pathname === paths.search.path;

  async function handleLogOut() {
    await navigate(paths.home.getHref());
    try {
      await signOut();
      notify.success(messages.guardLogout);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  return (
    <header className="border-b border-base-300 bg-base-100">
      <nav className="navbar mx-auto w-full px-2 sm:px-4" style={{ maxWidth: MAX_PAGE_WIDTH_PX }} aria-label={uiTexts.shell.mainNavigation}>
        <div className="navbar-start min-w-0 gap-1 max-lg:w-auto max-lg:flex-1">
          {menuToggle ?? <SiteMenu />}
          {/* On phones the brand wraps onto two lines rather than run under the buttons beside it. */}
          <Link
            to={paths.home.getHref()}
            className="btn btn-ghost h-auto min-h-10 min-w-0 shrink justify-start px-2 py-1 text-left text-base leading-tight font-bold whitespace-normal normal-case sm:text-lg"
          >
            {texts.brand}
          </Link>
        </div>
        <div className="navbar-center hidden lg:flex">
          <ul className="menu menu-horizontal gap-1 px-1">
            <SiteLinks withDashboard />
          </ul>
        </div>
        <div className="navbar-end gap-1 max-lg:w-auto max-lg:flex-none sm:gap-2">
          {user && <NotificationBell />}
          {user ? (
            <button type="button" className="btn btn-outline btn-sm" onClick={handleLogOut}>
              {labels.nav.logOut}
            </button>
          ) : (
            // While a stored session waits for an answer, the person is signed in as far as we know:
            // offering to log in or sign up would only send them to make a second session.
            !unreachable && (
              <>
                <Link to={paths.login.getHref()} className="btn btn-ghost btn-sm">
                  {labels.nav.logIn}
                </Link>
                <Link to={paths.signup.getHref()} className="btn btn-primary btn-sm">
                  {labels.nav.signUp}
                </Link>
              </>
            )
          )}
        </div>
      </nav>
      <div className="mx-auto flex w-full gap-2 px-2 pb-2 sm:px-4 md:justify-end" style={{ maxWidth: MAX_PAGE_WIDTH_PX }}>
        <SearchBox className="min-w-0 flex-1 md:w-96 md:flex-none" />
        {!onSearchPage && <LocationControl />}
      </div>
      <VerifyEmailBanner />
    </header>
  );
}
