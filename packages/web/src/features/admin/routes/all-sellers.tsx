import { texts } from '@furniture/contract';
import { UsersTable } from '../components/users-table.tsx';

export function AllSellersRoute() {
  return <UsersTable role="seller" title={texts.allSellersTitle} />;
}
