import { labels, type UserRole } from '@furniture/contract';
import { NavLink } from 'react-router';
import { paths } from '../../../config/paths.ts';

const menus: Record<UserRole, { to: string; label: string }[]> = {
  buyer: [
    { to: paths.dashboard.myOrders.getHref(), label: labels.dashboardMenu.myOrders },
    { to: paths.dashboard.myWishes.getHref(), label: labels.dashboardMenu.myWishes },
  ],
  seller: [
    { to: paths.dashboard.myProducts.getHref(), label: labels.dashboardMenu.myProducts },
    { to: paths.dashboard.addProducts.getHref(), label: labels.dashboardMenu.addProduct },
  ],
  admin: [
    { to: paths.dashboard.allBuyers.getHref(), label: labels.dashboardMenu.allBuyers },
    { to: paths.dashboard.allSellers.getHref(), label: labels.dashboardMenu.allSellers },
    { to: paths.dashboard.addCategory.getHref(), label: labels.dashboardMenu.addCategory },
    { to: paths.dashboard.addAdmin.getHref(), label: labels.dashboardMenu.addAdmin },
  ],
};

/** The role's links in the dashboard's side menu. */
export function DashboardMenu({ role, onNavigate }: { role: UserRole; onNavigate?: () => void }) {
  return (
    <nav aria-label="Dashboard">
      <ul className="menu w-64 gap-1 p-4">
        <li>
          <NavLink to={paths.dashboard.root.getHref()} end onClick={onNavigate} className={({ isActive }) => (isActive ? 'menu-active' : '')}>
            {labels.nav.dashboard}
          </NavLink>
        </li>
        {menus[role].map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} onClick={onNavigate} className={({ isActive }) => (isActive ? 'menu-active' : '')}>
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
