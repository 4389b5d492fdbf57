import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type ListingStep = 'renew' | 'withdraw' | 'sold-elsewhere';

/** POST /products/{id}/renew, /withdraw or /sold-elsewhere. */
export function useChangeListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, step }: { id: string; step: ListingStep }) =>
      api<{ success: boolean; message: string }>(`/products/${encodeURIComponent(id)}/${step}`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['products'] }),
  });
}
