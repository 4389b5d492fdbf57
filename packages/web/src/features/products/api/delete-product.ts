import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { DeleteResponse } from '@furniture/contract';
import { productKeys } from '../../../lib/query-keys.ts';

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<DeleteResponse>('/productDelete', { method: 'DELETE', query: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
