/**
 * Where an e-mail goes once its outbox row is claimed: SendGrid when SENDGRID_API_KEY is set,
 * otherwise nowhere but the outbox row itself and the process log (email.ts picks one).
 */
import type { EmailAttachment } from '../../../db/schema.ts';
import type { Logger } from '../app/logger.ts';

/** One message on its way: its outbox row's id and what the transport sends. */
export interface OutgoingMessage {
  /** The outbox row's id: what logs name instead of the recipient or the subject. */
  id: number;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: EmailAttachment[];
}

export interface Transport {
  readonly name: 'sendgrid' | 'outbox';
  /** Delivers one message or throws. The outbox transport only logs: the row is the local mailbox. */
  send(message: OutgoingMessage): Promise<void>;
}

export function outboxTransport(log: Logger): Transport {
  return {
    name: 'outbox',
    async send(message) {
      // The process log outlives an erasure (it is not in the database), so it names the row,
      // never the recipient or the subject (a subject can name the customer); the row is the mail.
      log.info('E-mail written to the outbox (SENDGRID_API_KEY is not set, so nothing was sent)', {
        messageId: message.id,
        kind: message.kind,
        attachments: message.attachments?.length ?? 0,
      });
    },
  };
}

export function sendGridTransport(apiKey: string, from: string, fetchImpl: typeof fetch): Transport {
  return {
    name: 'sendgrid',
    async send(message) {
      const content = [{ type: 'text/plain', value: message.text }];
      if (message.html) content.push({ type: 'text/html', value: message.html });
      const response = await fetchImpl('https://api.sendgrid.com/v3/mail/send', {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          personalizations: [{ to: [{ email: message.to }] }],
          from: { email: from },
          subject: message.subject,
          content,
          ...(message.attachments?.length
            ? {
                attachments: message.attachments.map(({ filename, type, content: data, contentId }) =>
                  contentId
                    ? { filename, type, content: data, disposition: 'inline', content_id: contentId }
                    : { filename, type, content: data, disposition: 'attachment' },
                ),
              }
            : {}),
        }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`SendGrid answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    },
  };
}

