import { texts } from '@furniture/contract';
import { useUserRecord } from '../../../lib/user-record.ts';
import { ProfileHeader } from '../components/profile-header.tsx';

export function DashboardHomeRoute() {
  const user = useUserRecord();
  if (!user) return null;
  return (
    <section className="flex flex-col gap-6">
      <ProfileHeader user={user} />
      <h1 className="text-3xl font-bold">{user.userRole === 'admin' ? texts.welcomeAdmin : texts.welcomeOther}</h1>
    </section>
  );
}
