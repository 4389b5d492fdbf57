import type { ChatMessage, Conversation, DataResponse, MeetingDetails, MessagePage } from '@furniture/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { conversationKeys } from '../../../lib/query-keys.ts';

/** GET /conversations: the signed-in person's threads, newest activity first. */
export const conversationsQuery = () =>
  queryOptions({
    queryKey: conversationKeys.all,
    queryFn: ({ signal }) =>
      api<DataResponse<Conversation[]>>('/conversations', { query: { limit: '100' }, signal }).then((r) => r.data),
    meta: { private: true },
  });

/** GET /conversations/{id}/messages: the newest page, oldest first for reading. */
export const messagesQuery = (conversationId: string) =>
  queryOptions({
    queryKey: conversationKeys.messagesOf(conversationId),
    queryFn: ({ signal }) =>
      api<MessagePage>(`/conversations/${encodeURIComponent(conversationId)}/messages`, { signal }).then((page) => ({
        messages: [...page.data].reverse(),
        nextBefore: page.nextBefore,
      })),
    meta: { private: true },
  });

export async function olderMessages(conversationId: string, before: string) {
  const page = await api<MessagePage>(`/conversations/${encodeURIComponent(conversationId)}/messages`, { query: { before } });
  return { messages: [...page.data].reverse(), nextBefore: page.nextBefore };
}

export function startConversation(productId: string) {
  return api<DataResponse<{ _id: string }>>('/conversations', { method: 'POST', json: { productId } }).then((r) => r.data._id);
}

export function markConversationRead(conversationId: string) {
  return api(`/conversations/${encodeURIComponent(conversationId)}/read`, { method: 'POST' });
}

/** Every change in a thread (a message, an offer, an answer): both lists are read again. */
function useThreadMutation<Variables>(mutationFn: (variables: Variables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: conversationKeys.all });
      await queryClient.invalidateQueries({ queryKey: conversationKeys.messages });
    },
  });
}

export const useSendMessage = () =>
  useThreadMutation(({ conversationId, text }: { conversationId: string; text: string }) =>
    api<DataResponse<ChatMessage>>(`/conversations/${encodeURIComponent(conversationId)}/messages`, {
      method: 'POST',
      json: { text },
    }),
  );

export const useMakeOffer = () =>
  useThreadMutation(({ conversationId, amount, details }: { conversationId: string; amount: number; details: MeetingDetails }) =>
    api(`/conversations/${encodeURIComponent(conversationId)}/offers`, { method: 'POST', json: { amount, ...details } }),
  );

export type OfferAnswer = 'accept' | 'decline' | 'counter';

/** `details`: the buyer's meeting details, sent when the buyer accepts or counters. */
export const useAnswerOffer = () =>
  useThreadMutation(({ offerId, answer, amount, details }: { offerId: string; answer: OfferAnswer; amount?: number; details?: MeetingDetails }) => {
    const body = { ...(answer === 'counter' ? { amount } : {}), ...(answer === 'decline' ? {} : details) };
    return api<DataResponse<{ bookingId?: string }>>(`/offers/${encodeURIComponent(offerId)}/${answer}`, {
      method: 'POST',
      ...(Object.keys(body).length ? { json: body } : {}),
    });
  });
