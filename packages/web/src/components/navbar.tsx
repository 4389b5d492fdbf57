import { labels, MAX_PAGE_WIDTH_PX, messages, texts } from '@furniture/contract';
import type { ReactNode } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { paths } from '../config/paths.ts';
import { useAuth } from '../lib/auth.tsx';
import { errorMessage, notify } from '../lib/notify.ts';
import { useDisclosureMenu } from '../lib/use-disclosure-menu.ts';
import { NotificationBell } from '../features/notifications/components/notification-bell.tsx';
import { SearchBox } from './search-box.tsx';

const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'menu-active font-semibold' : '');

/** The top bar of both layouts; `start` holds the dashboard's menu toggle on small screens. */
export function Navbar({ start }: { start?: ReactNode }) {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const menu = useDisclosureMenu<HTMLElement, HTMLDetailsElement>();

  async function handleLogOut() {
    await navigate(paths.home.getHref());
    try {
      await signOut();
      notify.success(messages.guardLogout);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  const links = (
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
      {user && (
        <li>
          <NavLink to={paths.dashboard.root.getHref()} className={linkClass}>
            {labels.nav.dashboard}
          </NavLink>
        </li>
      )}
    </>
  );

  return (
    <header className="border-b border-base-300 bg-base-100">
      <nav className="navbar mx-auto w-full px-2 sm:px-4" style={{ maxWidth: MAX_PAGE_WIDTH_PX }} aria-label="Main">
        <div className="navbar-start gap-1">
          {start}
          <details
            ref={menu.regionRef}
            className="dropdown lg:hidden"
            open={menu.open}
            onToggle={(event) => menu.setOpen(event.currentTarget.open)}
          >
            <summary
              ref={menu.toggleRef}
              className="btn btn-ghost btn-square"
              aria-label="Open navigation menu"
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
              {links}
            </ul>
          </details>
          <Link to={paths.home.getHref()} className="btn btn-ghost px-2 text-lg font-bold normal-case">
            {texts.brand}
          </Link>
        </div>
        <div className="navbar-center hidden lg:flex">
          <ul className="menu menu-horizontal gap-1 px-1">{links}</ul>
        </div>
        <div className="navbar-end gap-2">
          {user && <NotificationBell />}
          {user ? (
            <button type="button" className="btn btn-outline btn-sm" onClick={handleLogOut}>
              {labels.nav.logOut}
            </button>
          ) : (
            <>
              <Link to={paths.login.getHref()} className="btn btn-ghost btn-sm">
                {labels.nav.logIn}
              </Link>
              <Link to={paths.signup.getHref()} className="btn btn-primary btn-sm">
                {labels.nav.signUp}
              </Link>
            </>
          )}
        </div>
      </nav>
      <div className="mx-auto w-full px-2 pb-2 sm:px-4" style={{ maxWidth: MAX_PAGE_WIDTH_PX }}>
        <SearchBox className="w-full md:ml-auto md:w-96" />
      </div>
    </header>
  );
}
