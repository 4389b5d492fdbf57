import type { DataResponse } from '@furniture/contract';
import { api } from '../../../lib/api-client.ts';

/** POST /bookings/{id}/conversation: the thread with the booking's buyer, opened when there is none yet. */
export function openThreadWithBuyer(bookingId: string) {
  return api<DataResponse<{ _id: string }>>(`/bookings/${encodeURIComponent(bookingId)}/conversation`, { method: 'POST' }).then((r) => r.data._id);
}
