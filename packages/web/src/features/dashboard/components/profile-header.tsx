import type { PublicUser } from '@furniture/contract';
import { thumbnailOf } from '../../../lib/image-sources.ts';

/** The user's photo, name and role in brackets after the name. */
export function ProfileHeader({ user }: { user: PublicUser }) {
  return (
    <div className="flex items-center gap-4" data-testid="profile-header">
      <div className="avatar">
        <div className="w-16 rounded-full bg-base-300">
          {user.image ? (
            <img src={thumbnailOf(user.image)} alt={user.name} width={64} height={64} />
          ) : (
            <span className="flex h-full items-center justify-center text-2xl font-bold" aria-hidden="true">
              {user.name.slice(0, 1).toUpperCase()}
            </span>
          )}
        </div>
      </div>
      <p className="text-xl font-semibold">
        {user.name} <span>({user.userRole})</span>
      </p>
    </div>
  );
}
