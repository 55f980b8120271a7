import { emailKindLabel, MESSAGE_STATUS_LABELS, type MessageStatus } from '../../../domain/email-kinds.ts';
import { formatInstant } from '../bookings/format.ts';
import type { MessageSummary } from './messages-api.ts';

// Badges carry the word, not only a colour (design.md: badges with text).
const STATUS_STYLE: Record<MessageStatus, string> = {
  queued: 'bg-warning-50 text-warning-700 ring-1 ring-warning-700/30',
  sent: 'bg-concrete-100 text-concrete-800',
  failed: 'bg-danger-50 text-danger-600 ring-1 ring-danger-600/30',
};

export function MessageStatusBadge({ message }: { message: Pick<MessageSummary, 'status' | 'provider'> }) {
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${STATUS_STYLE[message.status]}`}>
      {MESSAGE_STATUS_LABELS[message.status]}
      {message.status === 'sent' && message.provider === 'outbox' ? ' (outbox only)' : ''}
    </span>
  );
}

/**
 * Messages as cards, one column on a phone and two from a tablet up: each card is one button
 * (a 44 px target at least) that opens the message, with kind, status, subject, recipient,
 * time, attempts and the last error.
 */
export function MessageCards({ messages, onOpen, showBooking = false }: { messages: MessageSummary[]; onOpen: (message: MessageSummary) => void; showBooking?: boolean }) {
  return (
    <ul className="grid grid-cols-[minmax(0,1fr)] gap-3 lg:grid-cols-2">
      {messages.map((message) => (
        <li key={message.id} data-testid="message-card">
          <button
            type="button"
            onClick={() => onOpen(message)}
            className="card block min-h-11 w-full p-4 text-left transition-colors hover:border-concrete-400 focus-visible:outline-2 focus-visible:outline-offset-2"
          >
            <span className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-sm font-semibold text-ink">{emailKindLabel(message.kind)}</span>
              <MessageStatusBadge message={message} />
            </span>
            <span className="mt-1 block font-semibold break-words text-ink">{message.subject}</span>
            <span className="mt-1 block text-sm break-all text-concrete-700">To {message.to}</span>
            <span className="mt-1 block text-sm text-concrete-600">
              <time dateTime={message.createdAt}>{formatInstant(message.createdAt)}</time>
              {` · ${message.attempts} ${message.attempts === 1 ? 'attempt' : 'attempts'}`}
              {showBooking && message.bookingId ? ` · Booking #${message.bookingId}` : ''}
              {message.resendOf ? ` · Resend of #${message.resendOf}` : ''}
            </span>
            {message.error && <span className="mt-2 block text-sm break-words text-danger-600">Error: {message.error}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}
