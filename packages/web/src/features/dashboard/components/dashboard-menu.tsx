import { accountTexts, conversationTexts, earningsTexts, financeTexts, labels, saleTexts, trustWebTexts, type Capability } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { sellerBookingsQuery } from '../../../lib/seller-bookings.ts';

type MenuItem = { to: string; label: string };

/** Each capability's links, in the order the menu shows them (decision 37). */
const menus: Record<Capability, MenuItem[]> = {
  admin: [
    { to: paths.dashboard.allBuyers.getHref(), label: labels.dashboardMenu.allBuyers },
    { to: paths.dashboard.allSellers.getHref(), label: labels.dashboardMenu.allSellers },
    { to: paths.dashboard.addCategory.getHref(), label: labels.dashboardMenu.addCategory },
    { to: paths.dashboard.addAdmin.getHref(), label: labels.dashboardMenu.addAdmin },
    { to: paths.dashboard.reports.getHref(), label: trustWebTexts.queueTitle },
    { to: paths.dashboard.audit.getHref(), label: trustWebTexts.auditTitle },
    { to: paths.dashboard.finance.getHref(), label: financeTexts.title },
  ],
  sell: [
    { to: paths.dashboard.myProducts.getHref(), label: labels.dashboardMenu.myProducts },
    { to: paths.dashboard.addProducts.getHref(), label: labels.dashboardMenu.addProduct },
    { to: paths.dashboard.sellerBookings.getHref(), label: saleTexts.sellerBookingsTitle },
    { to: paths.dashboard.earnings.getHref(), label: earningsTexts.title },
  ],
  buy: [
    { to: paths.dashboard.myOrders.getHref(), label: labels.dashboardMenu.myOrders },
    { to: paths.dashboard.myWishes.getHref(), label: labels.dashboardMenu.myWishes },
  ],
};
const messagesItem: MenuItem = { to: paths.dashboard.messages.getHref(), label: conversationTexts.messagesTitle };

/** The links of everything the account does, with one Messages link for buying and selling alike. */
function menuOf(held: readonly Capability[]): MenuItem[] {
  const items = (['admin', 'sell', 'buy'] as const).filter((capability) => held.includes(capability)).flatMap((capability) => menus[capability]);
  return held.includes('buy') || held.includes('sell') ? [...items, messagesItem] : items;
}

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

/** The account's links in the dashboard's side menu. */
export function DashboardMenu({ capabilities, onNavigate }: { capabilities: readonly Capability[]; onNavigate?: () => void }) {
  return (
    <nav aria-label={labels.nav.dashboard}>
      <ul className="menu w-64 gap-1 p-4">
        <li>
          <NavLink to={paths.dashboard.root.getHref()} end onClick={onNavigate} className={({ isActive }) => (isActive ? 'menu-active' : '')}>
            {labels.nav.dashboard}
          </NavLink>
        </li>
        {menuOf(capabilities).map((item) => (
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
