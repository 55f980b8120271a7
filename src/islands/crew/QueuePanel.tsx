import { useState } from 'react';
import { londonTime } from './crew-offline.ts';
import { waitingText, type CrewQueue, type QueuedItem } from './crew-queue.ts';

// What waits on the phone to be sent: how many, why it waits, and each item that cannot go by
// itself (a link that ended, a refusal), which stays until it is sent or the person discards it.

export const ASK_FOR_LINK = 'Ask the office for a new link';

const ACTION_LABEL: Record<QueuedItem['action'], string> = { 'on-the-way': 'On my way', done: 'Done', 'undo-done': 'Undo Done', photo: 'photo' };

function describe(item: QueuedItem): string {
  const what = item.action === 'photo' ? `${item.photoType ? item.photoType[0]!.toUpperCase() + item.photoType.slice(1) : 'A'} photo` : ACTION_LABEL[item.action];
  const at = londonTime(item.takenAt ?? new Date(item.createdAt).toISOString());
  return `${item.stopOrder ? `Stop ${item.stopOrder}: ` : ''}${what}, ${item.action === 'photo' ? 'taken' : 'tapped'} ${at}`;
}

interface Props {
  items: readonly QueuedItem[];
  sending: boolean;
  /** The link the phone holds has ended: nothing can go until the office sends a new one. */
  linkEnded: boolean;
  queue: Pick<CrewQueue, 'discard' | 'retry'> | null;
  onRetry: () => void;
}

export function QueuePanel({ items, sending, linkEnded, queue, onRetry }: Props) {
  const waiting = waitingText(items);
  if (!waiting) return null;
  const listed = linkEnded ? items : items.filter((item) => item.problem);
  return (
    <div className="rounded-2xl border border-warning-700/20 bg-warning-50 p-4 text-warning-700" data-testid="crew-waiting">
      <div className="flex items-center justify-between gap-3">
        <div>
          <p className="font-semibold">{waiting}</p>
          <p className="text-sm">
            {sending ? 'Sending…' : linkEnded ? `${ASK_FOR_LINK}. Until then everything stays on this phone.` : 'Kept on this phone. They go as soon as there is signal.'}
          </p>
        </div>
        {!linkEnded && (
          <button type="button" className="btn-secondary shrink-0 px-4" disabled={sending} onClick={onRetry}>
            Retry now
          </button>
        )}
      </div>
      {listed.length > 0 && (
        <ul className="mt-3 space-y-2" aria-label="Waiting on this phone">
          {listed.map((item) => (
            <QueuedRow key={item.id} item={item} queue={queue} />
          ))}
        </ul>
      )}
    </div>
  );
}

function QueuedRow({ item, queue }: { item: QueuedItem; queue: Props['queue'] }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="rounded-xl bg-white/70 p-3 text-sm text-ink" data-testid="crew-queued-item">
      <p className="font-semibold">{describe(item)}</p>
      {item.problem && <p className="mt-1 text-danger-600">{item.problem.reason}</p>}
      {queue && (
        <div className="mt-2 flex flex-wrap gap-2">
          {item.problem && (
            <button type="button" className="btn-secondary px-3 py-1 text-sm" onClick={() => void queue.retry(item.id)}>
              Try again
            </button>
          )}
          {confirming ? (
            <>
              <button type="button" className="btn-secondary px-3 py-1 text-sm text-danger-600" onClick={() => void queue.discard(item.id)}>
                Delete it from this phone
              </button>
              <button type="button" className="btn-secondary px-3 py-1 text-sm" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" className="btn-secondary px-3 py-1 text-sm" onClick={() => setConfirming(true)}>
              Discard
            </button>
          )}
        </div>
      )}
    </li>
  );
}
