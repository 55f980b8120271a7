import { useEffect, useRef, useState } from 'react';
import { emailKindLabel } from '../../../domain/email-kinds.ts';
import { errorMessage } from '../../shared/api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { formatInstant } from '../bookings/format.ts';
import { MessageStatusBadge } from './MessageCards.tsx';
import { attachmentUrl, fetchMessage, resendMessage, type MessageDetail } from './messages-api.ts';
import type { MessageLink } from '../../../server/services/messages/message-links.ts';
import type { ResendLinkChoice } from '../../../server/services/messages/staff-messages.ts';

const LINK_NAME: Record<MessageLink['kind'], string> = { crew: 'crew link', tracking: 'tracking link' };
const LINK_STATE: Record<Exclude<MessageLink['state'], 'live'>, string> = {
  revoked: 'was revoked (a newer link replaced it, or staff ended it)',
  expired: 'has expired: its day is over',
  gone: 'no longer opens',
};

/**
 * Resend for a message whose crew or tracking link no longer works: says so first, and offers
 * the same message with a fresh link (when there is still something to link to) or as it is.
 */
function DeadLinkResend({
  link,
  to,
  busy,
  resent,
  onResend,
}: {
  link: MessageLink;
  to: string;
  busy: boolean;
  resent: boolean;
  onResend: (link: ResendLinkChoice) => void;
}) {
  const state = LINK_STATE[link.state as Exclude<MessageLink['state'], 'live'>];
  return (
    <div role="group" aria-labelledby="dead-link-warning" className="rounded-xl border border-warning-700 bg-warning-50 p-4" data-testid="dead-link-warning">
      <p id="dead-link-warning" className="font-semibold text-warning-700">
        The {LINK_NAME[link.kind]} in this message {state}.
      </p>
      <p className="mt-1 text-sm text-ink">
        {link.canRenew
          ? `Sent as it is, ${to} would get a link that does not open. Send it with a fresh link instead.`
          : `There is no fresh link to send: ${link.kind === 'crew' ? 'the crew day is over or the worker is no longer active' : 'the booking no longer has a tracking page'}.`}
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        {link.canRenew && (
          <button type="button" className="btn-primary min-h-11 px-5 py-2 text-sm" disabled={busy || resent} onClick={() => onResend('fresh')}>
            {resent ? 'Resent' : 'Resend with a fresh link'}
          </button>
        )}
        <button type="button" className="btn-secondary min-h-11 px-5 py-2 text-sm" disabled={busy || resent} onClick={() => onResend('as-is')}>
          Resend as it is
        </button>
      </div>
    </div>
  );
}

type Part = 'text' | 'html';

/**
 * The HTML part as the frame shows it. The frame inherits the dashboard's Content Security
 * Policy, which allows no inline style: the message's style attributes and <style> blocks would
 * only be refused (one console error each), so they are left out here and the words, headings,
 * tables and links show as the browser draws them. Plain text edits, not a DOM parser: parsing
 * already applies the policy to each style attribute. A leftover is harmless (the policy refuses
 * it, and the frame runs nothing).
 */
export function htmlForFrame(html: string): string {
  return html.replace(/<style\b[\s\S]*?<\/style\s*>/gi, '').replace(/\sstyle\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '');
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
}

/**
 * One message as it was sent: its details, the plain text, the HTML part and its attachments,
 * and Resend. The HTML is shown in an iframe sandboxed with no permission at all (no scripts,
 * no forms, its own opaque origin) through `srcdoc`: never put into the dashboard's own DOM,
 * so nothing a customer typed into a message can act as staff.
 */
export function MessageView({ messageId, onResent }: { messageId: number; onResent?: () => void }) {
  const [message, setMessage] = useState<MessageDetail | null>(null);
  const [failed, setFailed] = useState('');
  const [part, setPart] = useState<Part>('text');
  const [resending, setResending] = useState(false);
  // One resend per opening of the message, under one key: a second click (a double click, even one
  // that lands after the first answer on a slow phone) or a retry of a lost answer replays the
  // first resend instead of queueing another copy. Another copy is a deliberate act: open it again.
  const [resent, setResent] = useState(false);
  const resendKeys = useRef<Record<string, string>>({});

  useEffect(() => {
    const controller = new AbortController();
    setMessage(null);
    setFailed('');
    fetchMessage(messageId, controller.signal)
      .then(setMessage)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setFailed(errorMessage(error));
      });
    return () => controller.abort();
  }, [messageId]);

  const resend = async (link?: ResendLinkChoice) => {
    if (resending || resent) return;
    setResending(true);
    const choice = link ?? 'plain';
    resendKeys.current[choice] ??= crypto.randomUUID();
    try {
      const copy = await resendMessage(messageId, resendKeys.current[choice], link);
      const how = link === 'fresh' ? ', with a fresh link,' : '';
      showToast({ title: 'Message Queued', description: `A copy of message #${copy.resendOf}${how} is on its way as #${copy.id}.`, variant: 'success' });
      setResent(true);
      onResent?.();
    } catch (error) {
      showToast({ title: 'Resend Failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setResending(false);
    }
  };

  if (failed) return <p className="rounded-xl bg-danger-50 p-4 text-danger-600">Could not load the message: {failed}</p>;
  if (!message) return <p className="py-6 text-center text-concrete-600" role="status">Loading the message…</p>;

  return (
    <article aria-labelledby={`message-${message.id}-subject`} className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <header className="grid gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-semibold text-concrete-700">{emailKindLabel(message.kind)} · #{message.id}</span>
          <MessageStatusBadge message={message} />
        </div>
        <h3 id={`message-${message.id}-subject`} className="text-lg font-semibold break-words">
          {message.subject}
        </h3>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
          <dt className="text-concrete-600">To</dt>
          <dd className="break-all">{message.to}</dd>
          <dt className="text-concrete-600">Written</dt>
          <dd>{formatInstant(message.createdAt)}</dd>
          <dt className="text-concrete-600">Sent</dt>
          <dd>{message.sentAt ? formatInstant(message.sentAt) : 'Not yet'}</dd>
          <dt className="text-concrete-600">Attempts</dt>
          <dd>{message.attempts}</dd>
          {message.error && (
            <>
              <dt className="text-concrete-600">Error</dt>
              <dd className="break-words text-danger-600">{message.error}</dd>
            </>
          )}
        </dl>
      </header>

      <div>
        <div role="group" aria-label="Which part of the message" className="inline-flex rounded-xl border border-concrete-200 bg-white p-1">
          {(
            [
              ['text', 'Plain text'],
              ['html', 'HTML'],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={part === value}
              disabled={value === 'html' && !message.html}
              onClick={() => setPart(value)}
              className={['min-h-11 rounded-lg px-4 text-sm font-semibold', part === value ? 'bg-ink text-white' : 'text-concrete-700 hover:text-ink'].join(' ')}
            >
              {label}
            </button>
          ))}
        </div>
        {part === 'text' || !message.html ? (
          <pre
            className="mt-3 max-h-[26rem] overflow-auto rounded-xl border border-concrete-200 bg-concrete-50 p-3 font-sans text-sm whitespace-pre-wrap break-words"
            tabIndex={0}
            role="region"
            aria-label="Plain text of the message"
          >
            {message.text}
          </pre>
        ) : (
          <>
            <iframe
              title="HTML part of the message"
              sandbox=""
              referrerPolicy="no-referrer"
              srcDoc={htmlForFrame(message.html)}
              className="mt-3 h-[26rem] w-full rounded-xl border border-concrete-200 bg-white"
            />
            <p className="mt-1 text-sm text-concrete-600">Shown without the message's own fonts and colours, which the dashboard does not load.</p>
          </>
        )}
      </div>

      <section aria-label="Attachments">
        <h4 className="text-sm font-semibold">Attachments</h4>
        {message.attachments.length === 0 ? (
          <p className="mt-1 text-sm text-concrete-600">None.</p>
        ) : (
          <ul className="mt-1 grid gap-1">
            {message.attachments.map((attachment, index) => (
              <li key={`${attachment.filename}-${index}`}>
                <a
                  href={attachmentUrl(message.id, index)}
                  download={attachment.filename}
                  className="inline-flex min-h-11 items-center break-all underline decoration-concrete-300 hover:decoration-ink"
                >
                  {attachment.filename}
                </a>
                <span className="ml-2 text-sm text-concrete-600">
                  {attachment.contentType.split(';')[0]} · {formatSize(attachment.size)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      {message.link && message.link.state !== 'live' ? (
        <div data-change>
          <DeadLinkResend link={message.link} to={message.to} busy={resending} resent={resent} onResend={(link) => void resend(link)} />
        </div>
      ) : (
        <div data-change>
          <button type="button" className="btn-primary min-h-11 px-5 py-2 text-sm" disabled={resending || resent} onClick={() => void resend()}>
            {resending ? 'Resending…' : resent ? 'Resent' : 'Resend'}
          </button>
          <p className="mt-2 text-sm text-concrete-600">Sends this same message to {message.to} again, as a new message.</p>
        </div>
      )}
    </article>
  );
}
