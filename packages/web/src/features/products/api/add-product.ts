import type { AddProductBody, MessageResponse } from '@furniture/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { productKeys } from '../../../lib/query-keys.ts';

export function useAddProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddProductBody) =>
      api<MessageResponse>('/addProduct', { method: 'POST', json: body }),
    // The new listing is the seller's own: product cards stop offering to book it.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: productKeys.all }), queryClient.invalidateQueries({ queryKey: ['product-marks'] })]),
  });
}
