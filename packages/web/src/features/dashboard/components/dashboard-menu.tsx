import { accountTexts, conversationTexts, earningsTexts, labels, saleTexts, trustWebTexts, type UserRole } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { sellerBookingsQuery } from '../../../lib/seller-bookings.ts';

const menus: Record<UserRole, { to: string; label: string }[]> = {
  buyer: [
    { to: paths.dashboard.myOrders.getHref(), label: labels.dashboardMenu.myOrders },
    { to: paths.dashboard.myWishes.getHref(), label: labels.dashboardMenu.myWishes },
    { to: paths.dashboard.messages.getHref(), label: conversationTexts.messagesTitle },
  ],
  seller: [
    { to: paths.dashboard.myProducts.getHref(), label: labels.dashboardMenu.myProducts },
    { to: paths.dashboard.addProducts.getHref(), label: labels.dashboardMenu.addProduct },
    { to: paths.dashboard.sellerBookings.getHref(), label: saleTexts.sellerBookingsTitle },
    { to: paths.dashboard.earnings.getHref(), label: earningsTexts.title },
    { to: paths.dashboard.messages.getHref(), label: conversationTexts.messagesTitle },
  ],
  admin: [
    { to: paths.dashboard.allBuyers.getHref(), label: labels.dashboardMenu.allBuyers },
    { to: paths.dashboard.allSellers.getHref(), label: labels.dashboardMenu.allSellers },
    { to: paths.dashboard.addCategory.getHref(), label: labels.dashboardMenu.addCategory },
    { to: paths.dashboard.addAdmin.getHref(), label: labels.dashboardMenu.addAdmin },
    { to: paths.dashboard.reports.getHref(), label: trustWebTexts.queueTitle },
    { to: paths.dashboard.audit.getHref(), label: trustWebTexts.auditTitle },
  ],
};

/** How many bookings on the seller's products wait for an answer. */
function NewBookingsBadge() {
  const { data: bookings } = useQuery(sellerBookingsQuery());
  const count = bookings?.filter((booking) => booking.status === 'open').length ?? 0;
  if (count === 0) return null;
  return (
    <span className="badge badge-sm badge-secondary" aria-label={saleTexts.newBookings(count)}>
      {count}
    </span>
  );
}

/** The role's links in the dashboard's side menu. */
export function DashboardMenu({ role, onNavigate }: { role: UserRole; onNavigate?: () => void }) {
  return (
    <nav aria-label={labels.nav.dashboard}>
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
              {item.to === paths.dashboard.sellerBookings.getHref() && <NewBookingsBadge />}
            </NavLink>
          </li>
        ))}
        <li>
          <NavLink to={paths.dashboard.settings.getHref()} onClick={onNavigate} className={({ isActive }) => (isActive ? 'menu-active' : '')}>
            {accountTexts.settings.menu}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
