import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { MessageResponse } from '@furniture/contract';
import { productKeys } from '../../../lib/query-keys.ts';

export type ListingStep = 'renew' | 'withdraw' | 'sold-elsewhere';

/** POST /products/{id}/renew, /withdraw or /sold-elsewhere. */
export function useChangeListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, step }: { id: string; step: ListingStep }) =>
      api<MessageResponse>(`/products/${encodeURIComponent(id)}/${step}`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
