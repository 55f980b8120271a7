import type { MessageDetail, MessageSummary, ResendBody, ResendLinkChoice } from '../../../server/services/messages/staff-messages.ts';
import { adminApi as api } from '../admin-api.ts';

export type { MessageDetail, MessageSummary };

/** The Messages tab's filters: part of a recipient's name or address, and a kind; '' means all. */
export interface MessageFilters {
  to: string;
  kind: string;
}

export const NO_MESSAGE_FILTERS: MessageFilters = { to: '', kind: '' };

export function messagesUrl(filters: MessageFilters): string {
  const query = new URLSearchParams();
  if (filters.to.trim()) query.set('to', filters.to.trim());
  if (filters.kind) query.set('kind', filters.kind);
  const text = query.toString();
  return `/api/admin/messages${text ? `?${text}` : ''}`;
}

export const fetchBookingMessages = (bookingId: number, signal?: AbortSignal) =>
  api<MessageSummary[]>(`/api/admin/bookings/${bookingId}/messages`, { signal });

export const fetchMessage = (id: number, signal?: AbortSignal) => api<MessageDetail>(`/api/admin/messages/${id}`, { signal });

export const attachmentUrl = (id: number, index: number) => `/api/admin/messages/${id}/attachments/${index}`;

/**
 * One key per opening of a message (and per choice): a double click on Resend replays the first
 * answer. `link` answers the warning about a crew or tracking link that no longer works.
 */
export const resendMessage = (id: number, idempotencyKey: string, link?: ResendLinkChoice) =>
  api<ResendBody>(`/api/admin/messages/${id}/resend${link ? `?link=${link}` : ''}`, { method: 'POST', headers: { 'Idempotency-Key': idempotencyKey } });
