import { texts } from '@furniture/contract';
import { UsersTable } from '../components/users-table.tsx';

export function AllBuyersRoute() {
  return <UsersTable role="buyer" title={texts.allBuyersTitle} />;
}
