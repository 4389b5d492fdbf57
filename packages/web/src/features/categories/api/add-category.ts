import type { AddCategoryBody, MessageResponse } from '@furniture/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { categoriesQuery } from '../../../lib/categories.ts';

export function useAddCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddCategoryBody) =>
      api<MessageResponse>('/addCategory', { method: 'POST', json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: categoriesQuery().queryKey }),
  });
}
