import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { MessageResponse } from '@furniture/contract';
import { productKeys } from '../../../lib/query-keys.ts';

/** POST /products/{id}/appeal: the seller's one appeal of a listing an admin hid. */
export function useAppealListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productId, text }: { productId: string; text: string }) =>
      api<MessageResponse>(`/products/${encodeURIComponent(productId)}/appeal`, { method: 'POST', json: { text } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
