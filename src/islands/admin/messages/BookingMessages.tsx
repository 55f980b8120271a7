import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../shared/api.ts';
import { Modal } from '../projects/Modal.tsx';
import { MessageCards } from './MessageCards.tsx';
import { MessageView } from './MessageView.tsx';
import { fetchBookingMessages, type MessageSummary } from './messages-api.ts';

type ListState = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'ready'; messages: MessageSummary[] };

/**
 * A booking's Messages: a button in its row opening every e-mail written for it, oldest first;
 * choosing one shows it as sent, with Resend (api.md "Staff messages").
 */
export function BookingMessagesButton({ bookingId, customer }: { bookingId: number; customer: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        // Beside the row's other actions (Archive, Restore), which follow it.
        className="btn-secondary mr-2 mb-2 min-h-11 px-3 py-1 text-sm"
        aria-label={`Messages of booking #${bookingId} (${customer})`}
        onClick={() => setOpen(true)}
      >
        Messages
      </button>
      <Modal open={open} wide title={`Messages for booking #${bookingId}`} description={`Every e-mail the site wrote for ${customer}'s booking, oldest first.`} onClose={() => setOpen(false)}>
        <BookingMessages bookingId={bookingId} onClose={() => setOpen(false)} />
      </Modal>
    </>
  );
}

function BookingMessages({ bookingId, onClose }: { bookingId: number; onClose: () => void }) {
  const [list, setList] = useState<ListState>({ state: 'loading' });
  const [openId, setOpenId] = useState<number | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((value) => value + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    fetchBookingMessages(bookingId, controller.signal)
      .then((messages) => setList({ state: 'ready', messages }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setList({ state: 'failed', error: errorMessage(error) });
      });
    return () => controller.abort();
  }, [bookingId, version]);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      {openId !== null ? (
        <>
          <div>
            <button type="button" className="btn-secondary min-h-11 px-4 py-2 text-sm" onClick={() => setOpenId(null)}>
              ← All messages
            </button>
          </div>
          <MessageView messageId={openId} onResent={reload} />
        </>
      ) : list.state === 'loading' ? (
        <p className="py-6 text-center text-concrete-600" role="status">Loading messages…</p>
      ) : list.state === 'failed' ? (
        <p className="rounded-xl bg-danger-50 p-4 text-danger-600">Could not load the messages: {list.error}</p>
      ) : list.messages.length === 0 ? (
        <p className="rounded-[var(--radius-card)] border border-dashed border-concrete-300 p-6 text-center text-concrete-700">No e-mails were written for this booking.</p>
      ) : (
        <MessageCards messages={list.messages} onOpen={(message) => setOpenId(message.id)} />
      )}
      <div className="flex justify-end">
        <button type="button" className="btn-secondary min-h-11 px-5 py-2 text-sm" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
