import type { EditProductBody, MessageResponse } from '@furniture/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { productKeys } from '../../../lib/query-keys.ts';

/** PATCH /products/{id}: saves the changes to one of the seller's listings. */
export function useEditProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: EditProductBody }) =>
      api<MessageResponse>(`/products/${encodeURIComponent(id)}`, { method: 'PATCH', json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
