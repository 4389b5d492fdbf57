import { labels, texts, uiTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { usersQuery } from '../../features/admin/api/get-users.ts';
import { bookingsQuery } from '../../features/bookings/api/get-bookings.ts';
import { ProfileHeader } from '../../features/dashboard/components/profile-header.tsx';
import { StartSelling } from '../../features/dashboard/components/start-selling.tsx';
import { myProductsQuery } from '../../features/products/api/get-my-products.ts';
import { wishesQuery } from '../../features/wishes/api/get-wishes.ts';
import { can } from '../../lib/can.ts';
import { useUserRecord } from '../../lib/user-record.ts';

interface NextStep {
  to: string;
  label: string;
  hint: string;
  /** What there is to see there, e.g. "3 orders · 1 waiting for payment"; absent while loading. */
  counts?: string | undefined;
}

const count = (n: number | undefined, say: (n: number) => string) => (n === undefined ? undefined : say(n));
const joined = (...parts: (string | undefined)[]) => (parts.some((part) => part === undefined) ? undefined : parts.join(' · '));

function BuyerSteps({ email }: { email: string }) {
  const orders = useQuery(bookingsQuery(email)).data;
  const wishes = useQuery(wishesQuery(email)).data;
  const unpaid = orders?.filter((order) => order.paymentStatus === 'unpaid' && order.inStock === 'available').length;
  return (
    <Steps
      steps={[
    { to: paths.dashboard.myOrders.getHref(), label: labels.dashboardMenu.myOrders, hint: uiTexts.dashboardHome.ordersHint, counts: joined(count(orders?.length, uiTexts.dashboardHome.orders), count(unpaid, uiTexts.dashboardHome.unpaidOrders)) },
    { to: paths.dashboard.myWishes.getHref(), label: labels.dashboardMenu.myWishes, hint: uiTexts.dashboardHome.wishesHint, counts: count(wishes?.length, uiTexts.dashboardHome.wishes) },
    { to: paths.categories.getHref(), label: uiTexts.dashboardHome.browse, hint: uiTexts.dashboardHome.browseHint },
      ]}
    />
  );
}

function SellerSteps({ email }: { email: string }) {
  const products = useQuery(myProductsQuery(email)).data;
  const advertised = products?.filter((product) => product.advertisement).length;
  return (
    <Steps
      steps={[
    { to: paths.dashboard.myProducts.getHref(), label: labels.dashboardMenu.myProducts, hint: uiTexts.dashboardHome.productsHint, counts: joined(count(products?.length, uiTexts.dashboardHome.products), count(advertised, uiTexts.dashboardHome.advertised)) },
    { to: paths.dashboard.addProducts.getHref(), label: labels.dashboardMenu.addProduct, hint: uiTexts.dashboardHome.addProductHint },
      ]}
    />
  );
}

function AdminSteps() {
  const sellers = useQuery(usersQuery('seller')).data;
  const buyers = useQuery(usersQuery('buyer')).data;
  return (
    <Steps
      steps={[
    { to: paths.dashboard.allSellers.getHref(), label: labels.dashboardMenu.allSellers, hint: uiTexts.dashboardHome.sellersHint, counts: count(sellers?.filter((seller) => !seller.verified).length, uiTexts.dashboardHome.pendingSellers) },
    { to: paths.dashboard.allBuyers.getHref(), label: labels.dashboardMenu.allBuyers, hint: uiTexts.dashboardHome.buyersHint, counts: count(buyers?.length, uiTexts.dashboardHome.buyers) },
    { to: paths.dashboard.addCategory.getHref(), label: labels.dashboardMenu.addCategory, hint: uiTexts.dashboardHome.addCategoryHint },
    { to: paths.dashboard.addAdmin.getHref(), label: labels.dashboardMenu.addAdmin, hint: uiTexts.dashboardHome.addAdminHint },
      ]}
    />
  );
}

function Steps({ steps }: { steps: NextStep[] }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {steps.map((step) => (
        <li key={step.to}>
          <Link to={step.to} className="card h-full border border-base-300 bg-base-100 transition-colors hover:border-primary">
            <span className="card-body gap-1 p-5">
              <span className="card-title text-lg">{step.label}</span>
              {step.counts && <span className="font-semibold text-primary">{step.counts}</span>}
              <span>{step.hint}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function DashboardHomeRoute() {
  const user = useUserRecord();
  if (!user) return null;
  return (
    <section className="flex flex-col gap-6">
      <ProfileHeader user={user} />
      <h1 className="text-3xl font-bold">{user.userRole === 'admin' ? texts.welcomeAdmin : texts.welcomeOther}</h1>
      <h2 className="text-xl font-semibold">{uiTexts.dashboardHome.nextSteps}</h2>
      {/* Each capability asks only for its own counts; someone who buys and sells sees both. */}
      {can(user, 'admin') && <AdminSteps />}
      {can(user, 'sell') && <SellerSteps email={user.email} />}
      {can(user, 'buy') && <BuyerSteps email={user.email} />}
      {!can(user, 'sell') && <StartSelling />}
    </section>
  );
}
