import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { MessageResponse } from '@furniture/contract';
import { productKeys } from '../../../lib/query-keys.ts';

export function useAdvertiseProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<MessageResponse>('/productAddToAdvertisement', { method: 'POST', query: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
