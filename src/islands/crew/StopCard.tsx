import { useId, useState, type ChangeEvent } from 'react';
import { CREW_STATUS_LABEL, arrivedLater, navigationUrl } from '../../domain/crew.ts';
import { preparePhoto } from '../admin/projects/scale-image.ts';
import type { CrewStop, CrewStopStatus } from './crew-api.ts';
import { photosWaitingText, type QueuedItem } from './crew-queue.ts';

// One stop on the crew's day: where, what, for whom, and the three things a crew does there.

type PhotoType = 'before' | 'during' | 'after';
const PHOTO_TYPES: { type: PhotoType; label: string }[] = [
  { type: 'before', label: 'Before' },
  { type: 'during', label: 'During' },
  { type: 'after', label: 'After' },
];

export interface StopActions {
  onTheWay(bookingId: number): Promise<void>;
  done(bookingId: number): Promise<void>;
  photo(
    bookingId: number,
    photo: Pick<QueuedItem, 'photo' | 'thumbnail' | 'photoType' | 'takenAt' | 'position'>,
  ): Promise<void>;
  notify(message: string): void;
}

const LONDON_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });
const timeOf = (iso: string | null) => (iso ? LONDON_TIME.format(new Date(iso)) : null);

const STATUS_TEXT = CREW_STATUS_LABEL;
const STATUS_CLASS: Record<CrewStopStatus, string> = {
  planned: 'bg-concrete-50 text-concrete-700',
  on_the_way: 'bg-warning-50 text-warning-700',
  started: 'bg-accent-50 text-accent-800',
  done: 'bg-accent-600 text-white',
};

/** Where the phone is, if the worker allows it; never holds the photo up for long. */
function currentPosition(): Promise<QueuedItem['position']> {
  if (!('geolocation' in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ lat: position.coords.latitude, lng: position.coords.longitude, accuracy: position.coords.accuracy }),
      () => resolve(null),
      { enableHighAccuracy: true, timeout: 8000, maximumAge: 60_000 },
    );
  });
}

export function StopCard({ stop, pending, actions }: { stop: CrewStop; pending: readonly QueuedItem[]; actions: StopActions | null }) {
  const [busy, setBusy] = useState<string | null>(null);
  const headingId = useId();
  // What the phone did but the server has not confirmed yet counts, so the crew sees their tap.
  const waitingWay = pending.some((item) => item.action === 'on-the-way');
  const waitingDone = pending.some((item) => item.action === 'done');
  const status: CrewStopStatus = waitingDone ? 'done' : stop.status === 'planned' && waitingWay ? 'on_the_way' : stop.status;
  const isDone = status === 'done';
  // Both times when the tap waited for signal: when it was tapped, and when the server had it.
  const time = arrivedLater(stop.statusAt, stop.statusReceivedAt) ? `${timeOf(stop.statusAt)} (received ${timeOf(stop.statusReceivedAt)})` : timeOf(stop.statusAt);
  const photoCount = (type: PhotoType) => stop.photos.filter((photo) => photo.photoType === type).length;
  const waitingCount = (type: PhotoType) => pending.filter((item) => item.action === 'photo' && item.photoType === type).length;
  const hasAfter = photoCount('after') + waitingCount('after') > 0;

  const run = async (key: string, work: () => Promise<void>) => {
    setBusy(key);
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };

  const takePhoto = (type: PhotoType) => async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || !actions) return;
    await run(type, async () => {
      const takenAt = new Date(Math.min(file.lastModified || Date.now(), Date.now())).toISOString();
      let prepared: { photo: File; thumbnail: File };
      try {
        prepared = await preparePhoto(file);
      } catch {
        actions.notify('That file could not be read as a photo. Please take it again.');
        return;
      }
      const position = await currentPosition();
      await actions.photo(stop.bookingId, { photo: prepared.photo, thumbnail: prepared.thumbnail, photoType: type, takenAt, position });
    });
  };

  return (
    <article aria-labelledby={headingId} className={`card overflow-hidden ${isDone ? 'opacity-90' : ''}`} data-testid="crew-stop" data-status={status}>
      <div className="flex items-start gap-3 p-5 pb-0">
        <span className={`flex size-10 shrink-0 items-center justify-center rounded-full text-lg font-bold ${isDone ? 'bg-accent-600 text-white' : 'bg-ink text-paper'}`} aria-hidden="true">
          {isDone ? '✓' : stop.order}
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id={headingId} className="text-xl">
              <span className="sr-only">Stop {stop.order}: </span>
              {stop.customerFirstName}
            </h2>
            <span className={`rounded-full px-3 py-1 text-sm font-semibold ${STATUS_CLASS[status]}`} data-testid="crew-status">
              {STATUS_TEXT[status]}
              {time && status === stop.status ? ` · ${time}` : ''}
              {status !== stop.status ? ' · waiting to send' : ''}
            </span>
          </div>
          <p className="mt-1 text-sm font-semibold text-concrete-700">
            <span className={stop.workType === 'night' ? 'text-ink' : 'text-accent-700'}>{stop.hours}</span> · {stop.quantity} patches
            {stop.unpaid && (
              <>
                {' · '}
                <span className="rounded-full bg-warning-50 px-2 py-0.5 text-warning-700 ring-1 ring-warning-700/30" data-testid="crew-unpaid">
                  unpaid
                </span>
              </>
            )}
          </p>
        </div>
      </div>
      <ul className="mt-3 space-y-1 px-5 text-concrete-800">
        {stop.addresses.map((address) => (
          <li key={address} className="break-words">
            {address}
          </li>
        ))}
      </ul>

      {!isDone && (
        <div className="mt-4 space-y-3 border-t border-concrete-100 bg-concrete-50/60 p-4">
          <div className="grid grid-cols-2 gap-3">
            {stop.lat !== null && stop.lng !== null ? (
              <a className="btn-secondary px-3" href={navigationUrl(stop.lat, stop.lng)} target="_blank" rel="noopener noreferrer">
                Navigate<span className="sr-only"> to {stop.customerFirstName}&rsquo;s stop (opens maps)</span>
              </a>
            ) : (
              <span />
            )}
            {waitingWay && stop.status === 'planned' ? (
              // Nobody has been told yet: the tap waits on the phone for signal.
              <p className="flex items-center justify-center rounded-xl border-2 border-dashed border-warning-700/30 bg-warning-50 px-2 py-1 text-center text-sm leading-snug font-semibold text-warning-700">
                Will tell the customer when you have signal
              </p>
            ) : (
              <button
                type="button"
                className={status === 'planned' ? 'btn-primary px-3' : 'btn-secondary px-3'}
                disabled={!actions || busy !== null || status !== 'planned'}
                onClick={() => void run('way', () => actions!.onTheWay(stop.bookingId))}
              >
                {status === 'planned' ? 'On my way' : 'Customer told'}
              </button>
            )}
          </div>
          <fieldset>
            <legend className="mb-2 text-sm font-semibold text-concrete-700">Photos</legend>
            <div className="grid grid-cols-3 gap-2">
              {PHOTO_TYPES.map(({ type, label }) => {
                const sent = photoCount(type);
                const waiting = waitingCount(type);
                const inputId = `${headingId}-${type}`;
                return (
                  <div key={type}>
                    <input
                      id={inputId}
                      type="file"
                      accept="image/*"
                      capture="environment"
                      className="peer sr-only"
                      disabled={!actions || busy !== null}
                      onChange={(event) => void takePhoto(type)(event)}
                      data-testid={`photo-${type}`}
                    />
                    <label
                      htmlFor={inputId}
                      className={`flex min-h-16 cursor-pointer flex-col items-center justify-center rounded-xl border-2 px-1 py-2 text-center font-semibold peer-focus-visible:outline-3 peer-focus-visible:outline-accent-600 ${
                        sent ? 'border-accent-600 bg-accent-50 text-accent-800' : 'border-dashed border-concrete-300 bg-white text-ink'
                      }`}
                    >
                      <span>{busy === type ? 'Saving…' : label}</span>
                      <span className="text-xs font-normal">
                        {sent ? `✓ ${sent} sent` : waiting ? '' : 'Take photo'}
                        {waiting ? `${sent ? ' · ' : ''}${photosWaitingText(waiting)}` : ''}
                      </span>
                    </label>
                  </div>
                );
              })}
            </div>
          </fieldset>
          <button
            type="button"
            className={hasAfter ? 'btn-accent w-full' : 'btn-secondary w-full'}
            disabled={!actions || busy !== null}
            onClick={() => void run('done', () => actions!.done(stop.bookingId))}
          >
            Mark done
          </button>
          {!hasAfter && <p className="text-center text-sm text-concrete-600">Take an After photo before you mark the stop done.</p>}
        </div>
      )}
      {isDone && (
        <p className="mt-3 border-t border-concrete-100 px-5 py-3 text-sm text-concrete-700">
          {photoCount('before') + photoCount('during') + photoCount('after')} photos sent
          {time && status === stop.status ? `; done at ${time}` : ''}.
          {status !== stop.status && ' Will tell the office it is done when you have signal.'}
        </p>
      )}
    </article>
  );
}
