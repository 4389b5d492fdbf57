import type { DataResponse, PublicUser } from '@furniture/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { useAuth } from './auth.tsx';
import { userKeys } from './query-keys.ts';

/** The signed-in user's database record (GET /user?email=), as the shell loads it. */
export const userRecordQuery = (email: string) =>
  queryOptions({
    queryKey: userKeys.record(email),
    queryFn: ({ signal }) =>
      api<DataResponse<PublicUser>>('/user', { query: { email }, signal }).then((r) => r.data),
    meta: { private: true },
  });

/** The record of the signed-in user, falling back to the session's copy until it arrives. */
export function useUserRecord(): PublicUser | null {
  const { user } = useAuth();
  const record = useQuery({ ...userRecordQuery(user?.email ?? ''), enabled: Boolean(user) });
  if (!user) return null;
  return record.data ?? user;
}
