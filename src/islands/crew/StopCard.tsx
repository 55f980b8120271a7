import { useId, useState, type ChangeEvent } from 'react';
import { CREW_STATUS_LABEL, arrivedLater, navigationUrl } from '../../domain/crew.ts';
import { preparePhoto } from '../admin/projects/scale-image.ts';
import type { CrewStop, CrewStopStatus } from './crew-api.ts';
import { photosWaitingText, type QueuedItem } from './crew-queue.ts';
import { DoneControl } from './DoneControl.tsx';
import { StopDetails } from './StopDetails.tsx';

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
  undoDone(bookingId: number): Promise<void>;
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
  done: 'bg-accent-700 text-white',
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

/**
 * The status the crew sees: the server's, changed by what waits on the phone. The last Done or
 * Undo waiting decides whether the stop shows done; an undo waiting goes back to Working when
 * photos were sent, else to Planned.
 */
function shownStatus(stop: CrewStop, pending: readonly QueuedItem[]): CrewStopStatus {
  const lastDoneTap = pending.findLast((item) => item.action === 'done' || item.action === 'undo-done');
  if (lastDoneTap?.action === 'done') return 'done';
  const waitingWay = pending.some((item) => item.action === 'on-the-way');
  const status = lastDoneTap && stop.status === 'done' ? (stop.photos.length > 0 ? 'started' : 'planned') : stop.status;
  return status === 'planned' && waitingWay ? 'on_the_way' : status;
}

/** The office's number for the card's Call button (src/content/business.ts, passed by the page). */
export interface OfficePhone {
  phone: string;
  phoneHref: string;
}

export function StopCard({ stop, pending, actions, office }: { stop: CrewStop; pending: readonly QueuedItem[]; actions: StopActions | null; office: OfficePhone }) {
  const [busy, setBusy] = useState<string | null>(null);
  const headingId = useId();
  // What the phone did but the server has not confirmed yet counts, so the crew sees their tap.
  const status = shownStatus(stop, pending);
  const isDone = status === 'done';
  const navigateTo = stop.navigationUrl ?? (stop.lat !== null && stop.lng !== null ? navigationUrl(stop.lat, stop.lng) : null);
  const places = stop.addresses.length;
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

  const doneControl = (
    <DoneControl
      customerFirstName={stop.customerFirstName}
      isDone={isDone}
      // The server's time of the Done; none while it waits on the phone.
      doneAt={isDone && stop.status === 'done' ? stop.statusAt : null}
      photosSent={stop.photos.length}
      hasAfter={hasAfter}
      disabled={!actions || busy !== null}
      onDone={() => void run('done', () => actions!.done(stop.bookingId))}
      onUndo={() => void run('undo', () => actions!.undoDone(stop.bookingId))}
    />
  );

  return (
    <article aria-labelledby={headingId} className="card overflow-hidden" data-testid="crew-stop" data-status={status} data-booking-id={stop.bookingId}>
      <div className="flex items-start gap-3 p-5 pb-0">
        <span className={`flex size-10 shrink-0 items-center justify-center rounded-full text-lg font-bold ${isDone ? 'bg-accent-700 text-white' : 'bg-ink text-paper'}`} aria-hidden="true">
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
      <ul className="mt-3 space-y-1 px-5 text-concrete-800" aria-label="Addresses">
        {stop.addresses.map((address, index) => (
          <li key={address} className="flex gap-2 break-words">
            {places > 1 && (
              <span className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-concrete-100 text-xs font-bold text-concrete-700" aria-hidden="true">
                {String.fromCharCode(65 + index)}
              </span>
            )}
            <span className="min-w-0">{address}</span>
          </li>
        ))}
      </ul>
      <StopDetails stop={stop} />

      <div className="mt-4 space-y-3 border-t border-concrete-100 bg-concrete-50/60 p-4">
        {!isDone && (
          <div className="grid grid-cols-2 gap-3">
            {navigateTo ? (
              <a className="btn-secondary px-3" href={navigateTo} target="_blank" rel="noopener noreferrer">
                Navigate{places > 1 ? ` (${places})` : ''}
                <span className="sr-only">
                  {places > 1 ? ` through all ${places} places of ` : ' to '}
                  {stop.customerFirstName}&rsquo;s stop (opens maps)
                </span>
              </a>
            ) : (
              <span />
            )}
            <OnMyWay stop={stop} waiting={pending.some((item) => item.action === 'on-the-way')} disabled={!actions || busy !== null} onTap={() => void run('way', () => actions!.onTheWay(stop.bookingId))} />
          </div>
        )}
        {isDone && doneControl}
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-concrete-700">{isDone ? 'Add a photo' : 'Photos'}</legend>
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
        {!isDone && doneControl}
        <a className="btn-secondary w-full" href={office.phoneHref} data-testid="crew-call-office">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-none stroke-current stroke-2">
            <path strokeLinecap="round" strokeLinejoin="round" d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2" />
          </svg>
          Call the office<span className="font-normal text-concrete-600">{office.phone}</span>
        </a>
      </div>
    </article>
  );
}

const NOTE_BOX = 'flex items-center justify-center rounded-xl border-2 px-2 py-1 text-center text-sm leading-snug font-semibold';

/**
 * On my way says what happened to the customer, from the server's answer (`onTheWay`), never
 * from the stop's status: a photo taken first leaves the customer untold and the button there.
 */
export function OnMyWay({ stop, waiting, disabled, onTap }: { stop: CrewStop; waiting: boolean; disabled: boolean; onTap: () => void }) {
  if (stop.onTheWay?.customerTold) {
    return (
      <p className={`${NOTE_BOX} border-accent-600/40 bg-accent-50 text-accent-800`} data-testid="on-my-way-note">
        Customer told · {timeOf(stop.onTheWay.at)}
      </p>
    );
  }
  if (stop.onTheWay) {
    // Sent too late, or after the work it announced (crew-day.ts): recorded, nobody e-mailed.
    return (
      <p className={`${NOTE_BOX} border-concrete-300 bg-white text-concrete-700`} data-testid="on-my-way-note">
        On my way {timeOf(stop.onTheWay.at)} · sent late, customer not e-mailed
      </p>
    );
  }
  if (waiting) {
    // Nobody has been told yet: the tap waits on the phone for signal.
    return (
      <p className={`${NOTE_BOX} border-dashed border-warning-700/30 bg-warning-50 text-warning-700`} data-testid="on-my-way-note">
        Will tell the customer when you have signal
      </p>
    );
  }
  return (
    <button type="button" className={stop.status === 'planned' ? 'btn-primary px-3' : 'btn-secondary px-3'} disabled={disabled} onClick={onTap}>
      On my way
      {stop.status !== 'planned' && <span className="sr-only"> (the customer has not been told)</span>}
    </button>
  );
}
