import type { DataResponse, MessageResponse, RecoveryCodesResult, SecondStepOffBody, SecondStepStatus, TotpEnrolment } from '@furniture/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { accountKeys } from '../../../lib/query-keys.ts';

/** Two-step sign-in in Settings (decision 38). */
export const secondStepQuery = () =>
  queryOptions({
    queryKey: accountKeys.secondStep,
    queryFn: ({ signal }) => api<DataResponse<SecondStepStatus>>('/me/second-step', { signal }).then((r) => r.data),
    meta: { private: true },
  });

export function useStartTotp() {
  return useMutation({ mutationFn: () => api<DataResponse<TotpEnrolment>>('/me/second-step/totp', { method: 'POST' }).then((r) => r.data) });
}

export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      api<DataResponse<RecoveryCodesResult> & { message: string }>('/me/second-step/totp/confirm', { method: 'POST', json: { code } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.secondStep }),
  });
}

export function useTurnOffTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (proof: SecondStepOffBody) => api<MessageResponse>('/me/second-step', { method: 'DELETE', json: proof }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.secondStep }),
  });
}
