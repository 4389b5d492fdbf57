import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { DeleteResponse } from '@furniture/contract';
import { productMarkKeys, wishKeys } from '../../../lib/query-keys.ts';

export function useDeleteWish() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<DeleteResponse>('/wishDelete', { method: 'DELETE', query: { id } }),
    // Product cards show what the buyer has wished for and booked.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: wishKeys.all }), queryClient.invalidateQueries({ queryKey: productMarkKeys.all })]),
  });
}
