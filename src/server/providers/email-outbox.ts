import type { Database } from '../../../db/client.ts';
import { emailOutbox, type EmailAttachment } from '../../../db/schema.ts';
import { cleanOneLine } from '../../domain/text.ts';
import { isBookingEmailKind, type BookingEmailKind } from '../../domain/email-kinds.ts';
import type { OutgoingMessage } from './email-transports.ts';

// The outbox (writing e-mails): services write an e-mail as a row in the same transaction as
// the change that caused it. mailer.ts delivers the rows.

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What the e-mail is (src/domain/email-kinds.ts): 'booking-confirmation', 'payment-receipt', ... */
  kind: string;
  /** The booking it is about, so staff find it in that booking's Messages; omitted for none. */
  bookingId?: number | null;
  /** The same key twice writes one e-mail: replayed webhooks and retried jobs stay quiet. */
  dedupeKey?: string;
  /** Files sent with it (the calendar invite). Kept small: they live in the outbox row. */
  attachments?: EmailAttachment[];
}

export type { EmailAttachment };

/** An e-mail a booking caused: its type needs the booking, so staff find it in its Messages. */
export interface BookingEmailMessage extends EmailMessage {
  kind: BookingEmailKind;
  bookingId: number;
}

/** The outbox refuses a booking's e-mail without its booking id: it would be missing from the booking's history. */
function assertBookingLink(message: EmailMessage): void {
  if (isBookingEmailKind(message.kind) && !(typeof message.bookingId === 'number' && message.bookingId > 0)) {
    throw new Error(`A ${message.kind} e-mail needs the id of the booking it is about`);
  }
}

/**
 * A row still 'sending' this long after its claim belongs to a delivery that died mid-send: the
 * maintenance job puts it back in the queue. A claimed delivery that starts after half of it
 * leaves its messages to the job instead, so the two never both send one.
 */
export const STUCK_SENDING_MINUTES = 15;

/**
 * Transactional outbox: services write the e-mail in the same transaction as the change that
 * caused it, so a rolled-back booking never mails anyone. Returns false when the dedupe key
 * already had an e-mail.
 */
export async function queueEmail(db: Database, message: EmailMessage): Promise<boolean> {
  const inserted = await emailInsert(db, [message]).returning({ id: emailOutbox.id });
  return inserted.length > 0;
}

/**
 * The outbox INSERT for several messages, not yet run: for a caller that sends it together with
 * other writes in one statement (db/combined-writes.ts). A dedupe key that already has an e-mail
 * is skipped, as in queueEmail.
 *
 * With `claimedAt`, the rows are written already claimed by the caller (status 'sending', one
 * attempt at that instant), which then delivers them itself right after its transaction commits
 * (Mailer.deliverClaimed), without a statement to claim them. Should it never get there (the
 * process stopped), the maintenance job puts them back in the queue after STUCK_SENDING_MINUTES,
 * as it does for any delivery cut short.
 */
export function emailInsert(db: Database, messages: readonly EmailMessage[], { claimedAt }: { claimedAt?: Date } = {}) {
  messages.forEach(assertBookingLink);
  const claim = claimedAt ? { status: 'sending' as const, attempts: 1, lastAttemptAt: claimedAt } : {};
  return db
    .insert(emailOutbox)
    .values(
      messages.map((message) => ({
        kind: message.kind,
        bookingId: message.bookingId ?? null,
        to: message.to,
        subject: outboxSubject(message),
        text: message.text,
        html: message.html,
        attachments: message.attachments?.length ? message.attachments : null,
        dedupeKey: message.dedupeKey,
        ...claim,
      })),
    )
    .onConflictDoNothing({ target: emailOutbox.dedupeKey });
}

/**
 * Messages written already claimed at `claimedAt`: `write` is the INSERT (with RETURNING) for a
 * combined statement (db/combined-writes.ts runCombinedReturning), and `sendable` turns the rows it
 * returned into the messages to hand to Mailer.deliverClaimed. A message whose dedupe key already
 * had an e-mail returns no row and is not sent again.
 */
export function claimedEmails(db: Database, messages: readonly EmailMessage[], claimedAt: Date) {
  // The rows are matched back to their messages by dedupe key: one without could never be sent.
  if (messages.some((message) => !message.dedupeKey)) throw new Error('claimedEmails: every message needs a dedupe key');
  return {
    write: emailInsert(db, messages, { claimedAt }).returning({ id: emailOutbox.id, dedupeKey: emailOutbox.dedupeKey }),
    sendable(rows: readonly ClaimedEmailRow[]): OutgoingMessage[] {
      return messages.flatMap((message) => {
        const row = rows.find((candidate) => candidate.dedupe_key === message.dedupeKey);
        return row ? [claimedMessage(row.id, message)] : [];
      });
    },
  };
}

/** What claimedEmails' INSERT returns, as raw rows. */
export interface ClaimedEmailRow {
  id: number;
  dedupe_key: string;
}

/** A subject is one header line: what a customer typed into it cannot add another. */
function outboxSubject(message: EmailMessage): string {
  return cleanOneLine(message.subject);
}

/** A message written already claimed, as the transport gets it: exactly what its outbox row holds. */
function claimedMessage(id: number, message: EmailMessage): OutgoingMessage {
  return {
    id,
    kind: message.kind,
    to: message.to,
    subject: outboxSubject(message),
    text: message.text,
    html: message.html ?? null,
    attachments: message.attachments ?? [],
  };
}
