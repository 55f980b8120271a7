import { useState, type FormEvent } from 'react';
import { EMAIL_KIND_LABELS } from '../../../domain/email-kinds.ts';
import { INPUT_CLASS } from '../../shared/FormField.tsx';
import { PagedListBody } from '../bookings/PagedListBody.tsx';
import { usePagedList } from '../bookings/use-paged-list.ts';
import { Modal } from '../projects/Modal.tsx';
import { MessageCards } from './MessageCards.tsx';
import { MessageView } from './MessageView.tsx';
import { messagesUrl, NO_MESSAGE_FILTERS, type MessageFilters, type MessageSummary } from './messages-api.ts';

const LABEL = 'block text-sm font-semibold';

/**
 * The Messages tab: every e-mail the site wrote, newest first, a page at a time, including those
 * about no booking (enquiries, workers). Filters: the recipient (part of an address, or of the
 * customer's, enquirer's or worker's name) and the kind. Opening one shows it as sent, with Resend.
 */
export function MessagesSection() {
  const [draft, setDraft] = useState<MessageFilters>(NO_MESSAGE_FILTERS);
  const [filters, setFilters] = useState<MessageFilters>(NO_MESSAGE_FILTERS);
  const [opened, setOpened] = useState<MessageSummary | null>(null);
  const list = usePagedList<MessageSummary>(messagesUrl(filters));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
  };

  return (
    <section aria-labelledby="messages-heading" className="grid grid-cols-[minmax(0,1fr)] gap-3">
      <h2 id="messages-heading" className="text-xl">
        Messages, newest first
      </h2>
      <form role="search" aria-label="Filter messages" onSubmit={submit} className="card grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] lg:items-end">
        <div>
          <label htmlFor="messages-to" className={LABEL}>
            Recipient
          </label>
          <input
            id="messages-to"
            type="search"
            autoComplete="off"
            aria-describedby="messages-to-hint"
            className={`mt-1 ${INPUT_CLASS}`}
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          />
          <p id="messages-to-hint" className="mt-1 text-sm text-concrete-600">
            Part of a name or an address: &lsquo;priya&rsquo;, &lsquo;@crew.co.uk&rsquo;.
          </p>
        </div>
        <div>
          <label htmlFor="messages-kind" className={LABEL}>
            Kind
          </label>
          <select
            id="messages-kind"
            className={`mt-1 ${INPUT_CLASS}`}
            value={draft.kind}
            onChange={(event) => {
              const next = { ...draft, kind: event.target.value };
              setDraft(next);
              setFilters(next);
            }}
          >
            <option value="">All kinds</option>
            {Object.entries(EMAIL_KIND_LABELS).map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-1">
          <button type="submit" className="btn-primary min-h-11 px-5 py-2 text-sm">
            Show messages
          </button>
          <button
            type="button"
            className="btn-secondary min-h-11 px-5 py-2 text-sm"
            onClick={() => {
              setDraft(NO_MESSAGE_FILTERS);
              setFilters(NO_MESSAGE_FILTERS);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <p className="text-sm text-concrete-600" role="status">
        {list.state === 'ready' && list.total !== null ? `${list.total} ${list.total === 1 ? 'message' : 'messages'}` : ''}
      </p>
      <PagedListBody list={list} noun="messages" empty="No messages match these filters.">
        {(messages) => <MessageCards messages={messages} onOpen={setOpened} showBooking />}
      </PagedListBody>
      <Modal open={opened !== null} wide title={opened ? `Message #${opened.id}` : 'Message'} onClose={() => setOpened(null)}>
        {opened && (
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
            <MessageView messageId={opened.id} onResent={list.reload} />
            <div className="flex justify-end">
              <button type="button" className="btn-secondary min-h-11 px-5 py-2 text-sm" onClick={() => setOpened(null)}>
                Close
              </button>
            </div>
          </div>
        )}
      </Modal>
    </section>
  );
}
