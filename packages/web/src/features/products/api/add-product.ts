import type { AddProductBody, MessageResponse } from '@furniture/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { productKeys } from '../../../lib/query-keys.ts';

export function useAddProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddProductBody) =>
      api<MessageResponse>('/addProduct', { method: 'POST', json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
