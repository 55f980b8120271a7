const DAY_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
const TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/** '27 Nov, 17:07' in London: short enough for a photo's tile on a phone. */
const dayAndTime = (iso: string) => DAY_TIME.format(new Date(iso));
/** The second time alone when it falls on the same London day as the first. */
const laterTime = (iso: string, first: string) => (DAY.format(new Date(iso)) === DAY.format(new Date(first)) ? TIME.format(new Date(iso)) : dayAndTime(iso));

// A crew photo as the proof it is: when the phone took it, where, and who sent it. The place is a
// link to the spot on a map, not a map drawn on the card: a card with a dozen photos stays light.

export interface PhotoProofData {
  takenAt: string | null;
  createdAt: string;
  lat: number | null;
  lng: number | null;
  accuracyM: number | null;
  workerName: string | null;
}

/** A photo that arrives this long after it was taken (a phone offline a while) shows both times. */
const LATE_ARRIVAL_MS = 2 * 60_000;

/** The spot on OpenStreetMap, zoomed to a street, with a marker. */
export function mapLinkUrl(lat: number, lng: number): string {
  const at = `${lat.toFixed(5)}/${lng.toFixed(5)}`;
  return `https://www.openstreetmap.org/?mlat=${lat.toFixed(5)}&mlon=${lng.toFixed(5)}#map=18/${at}`;
}

export function isCrewPhoto(photo: { workerId?: number | null; takenAt?: string | null }): boolean {
  return photo.workerId != null || photo.takenAt != null;
}

export function PhotoProof({ photo, className = '' }: { photo: PhotoProofData; className?: string }) {
  const taken = photo.takenAt ?? photo.createdAt;
  const arrivedLate = photo.takenAt !== null && new Date(photo.createdAt).getTime() - new Date(photo.takenAt).getTime() > LATE_ARRIVAL_MS;
  return (
    <dl className={`grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs leading-5 text-concrete-700 ${className}`.trim()} data-testid="photo-proof">
      <dt className="text-concrete-600">Taken</dt>
      <dd>
        <span className="whitespace-nowrap">{dayAndTime(taken)}</span>
        {photo.takenAt === null && ' (received)'}
        {arrivedLate && (
          <span className="block text-concrete-600">
            received <span className="whitespace-nowrap">{laterTime(photo.createdAt, taken)}</span>
          </span>
        )}
      </dd>
      <dt className="text-concrete-600">By</dt>
      <dd className="truncate">{photo.workerName ?? 'A crew member'}</dd>
      <dt className="text-concrete-600">Place</dt>
      <dd>
        {photo.lat !== null && photo.lng !== null ? (
          <a
            href={mapLinkUrl(photo.lat, photo.lng)}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex min-h-6 items-center font-semibold text-ink underline underline-offset-2"
          >
            Map{photo.accuracyM !== null ? ` (±${Math.round(photo.accuracyM)} m)` : ''}
            <span className="sr-only"> of where it was taken (opens in a new tab)</span>
          </a>
        ) : (
          'Not shared'
        )}
      </dd>
    </dl>
  );
}
