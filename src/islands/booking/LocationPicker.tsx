import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $locations, LOCATIONS_KEY, addLocation, removeLocation, updateLocation } from './booking-store.ts';
import { FieldError, HINT_CLASS, LABEL_CLASS, controlId, errorId, hintId } from './Field.tsx';
import { LocationSearch } from './LocationSearch.tsx';
import { addressAt, type Place } from './geocode.ts';
import type { MapFocus } from './LocationMap.tsx';
import { MapBoundary, lazyWithStylesheet } from '../shared/load-stylesheet.ts';
// Only the sheet's address: Astro would otherwise put Leaflet's 11 KB of CSS in the page's head,
// where it holds up the first paint of a page whose map is far below the fold.
import leafletStylesheet from 'leaflet/dist/leaflet.css?url';

// Section 6's map, search box and list of chosen places. Leaflet (about 45 KB compressed with its
// React wrapper) cannot render on the server and is the form's largest part, so it loads only
// when the map's box comes near the screen, not with the form; the spec's 'Loading map...' shows
// until then (public-site.md §2).
const LocationMap = lazyWithStylesheet(() => import('./LocationMap.tsx'), leafletStylesheet);

const MAP_LOADING = 'Loading map...';

/** If the map cannot load, the search box and the list still let people book. */
const MAP_FAILED = (
  <p className="flex h-full items-center justify-center p-6 text-center text-concrete-700">
    The map could not be loaded. Use the search box above to add your locations.
  </p>
);

export interface LocationPickerProps {
  tileUrl: string;
  attribution: string;
  error?: string;
}

export function LocationPicker({ tileUrl, attribution, error }: LocationPickerProps) {
  const locations = useStore($locations);
  const [isNear, setIsNear] = useState(false);
  const mapBox = useRef<HTMLDivElement>(null);
  const [focus, setFocus] = useState<MapFocus | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const mapCentre = useRef<(() => { lat: number; lng: number }) | null>(null);
  const [isMapReady, setIsMapReady] = useState(false);
  // The newest look-up per pin wins, so a pin dragged twice ends with its last address.
  const lookups = useRef(new Map<number, number>());

  useEffect(() => {
    const box = mapBox.current;
    if (!box || typeof IntersectionObserver === 'undefined') return setIsNear(true);
    // Some way ahead of the screen, so a person scrolling down rarely sees the loading state.
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        setIsNear(true);
        observer.disconnect();
      }
    }, { rootMargin: '600px 0px' });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  const lookUp = useCallback(async (id: number, lat: number, lng: number) => {
    const seq = (lookups.current.get(id) ?? 0) + 1;
    lookups.current.set(id, seq);
    const address = await addressAt(lat, lng);
    if (lookups.current.get(id) !== seq) return;
    updateLocation(id, { address });
    setAnnouncement(`Added ${address}`);
  }, []);

  const onAdd = useCallback(
    (lat: number, lng: number) => {
      const id = addLocation(lat, lng, null);
      void lookUp(id, lat, lng);
    },
    [lookUp],
  );

  const onMove = useCallback(
    (id: number, lat: number, lng: number) => {
      updateLocation(id, { lat, lng, address: null });
      void lookUp(id, lat, lng);
    },
    [lookUp],
  );

  const onMapReady = useCallback((centre: (() => { lat: number; lng: number }) | null) => {
    mapCentre.current = centre;
    setIsMapReady(centre !== null);
  }, []);

  // The keyboard's way to place a pin, with or without a geocoder: pan the map with the arrow
  // keys, then add a pin where the cross-hair is. The address lookup and its fallback are a click's.
  function addAtCentre() {
    const centre = mapCentre.current?.();
    if (centre) onAdd(centre.lat, centre.lng);
  }

  const onRemove = useCallback((id: number) => {
    const removed = $locations.get().find((location) => location.id === id);
    lookups.current.delete(id);
    removeLocation(id);
    setAnnouncement(`Removed ${removed?.address ?? 'location'}`);
  }, []);

  function onPick(place: Place) {
    addLocation(place.lat, place.lng, place.address);
    setFocus({ lat: place.lat, lng: place.lng, seq: Date.now() });
    setAnnouncement(`Added ${place.address}`);
  }

  const searchName = 'location-search';
  const describedBy = [hintId(searchName), error ? errorId(LOCATIONS_KEY) : null].filter(Boolean).join(' ');

  return (
    <div>
      <label htmlFor={controlId(searchName)} className={LABEL_CLASS}>
        Search for a location
      </label>
      <p id={hintId(searchName)} className={HINT_CLASS}>
        Type a street, postcode or landmark and press Enter to add it, or click the map to drop a pin.
      </p>
      <FieldError name={LOCATIONS_KEY} error={error} />
      <div className="mt-2">
        <LocationSearch id={controlId(searchName)} describedBy={describedBy} isInvalid={Boolean(error)} onPick={onPick} />
      </div>

      <div className="group/map mt-4">
        <button
          type="button"
          className="btn-secondary min-h-11 gap-2 px-4 py-2 text-[0.95rem] disabled:cursor-not-allowed disabled:opacity-60"
          disabled={!isMapReady}
          aria-describedby={MAP_HELP_ID}
          onClick={addAtCentre}
        >
          <CrossHair size={20} />
          Add a pin at the map centre
        </button>
        <div
          className="relative isolate mt-3 h-72 overflow-hidden rounded-2xl border border-concrete-200 bg-concrete-50 sm:h-96"
          data-testid="booking-map"
          ref={mapBox}
        >
          {isNear ? (
            <MapBoundary fallback={MAP_FAILED}>
              <Suspense fallback={<MapLoading />}>
                <LocationMap
                  tileUrl={tileUrl}
                  attribution={attribution}
                  locations={locations}
                  focus={focus}
                  onAdd={onAdd}
                  onRemove={onRemove}
                  onMove={onMove}
                  onReady={onMapReady}
                  describedBy={MAP_HELP_ID}
                />
              </Suspense>
            </MapBoundary>
          ) : (
            <MapLoading />
          )}
          {isMapReady && (
            // Where the button puts the pin: shown while the map or the button has focus.
            <span className="pointer-events-none absolute top-1/2 left-1/2 z-[450] -translate-x-1/2 -translate-y-1/2 text-ink opacity-0 transition-opacity group-focus-within/map:opacity-100">
              <CrossHair size={36} />
            </span>
          )}
        </div>
        <p id={MAP_HELP_ID} className="mt-2 text-sm text-concrete-600">
          Click the map to add a pin for each spot. Drag a pin to move it, or click it to remove it. With a keyboard,
          move the map with the arrow keys, then use Add a pin at the map centre.
        </p>
      </div>

      <div className="mt-5">
        <h3 className="text-base font-semibold" id="booking-locations-heading">
          Selected locations ({locations.length})
        </h3>
        {locations.length === 0 ? (
          <p className="mt-1 text-sm text-concrete-600">No locations yet.</p>
        ) : (
          <ol className="mt-2 divide-y divide-concrete-100 rounded-2xl border border-concrete-200 bg-white" aria-labelledby="booking-locations-heading">
            {locations.map((location, index) => (
              <li key={location.id} className="flex items-center gap-3 py-1.5 pr-1.5 pl-4">
                <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-accent-100 text-sm font-bold text-accent-800" aria-hidden="true">
                  {index + 1}
                </span>
                <span className="min-w-0 flex-1 text-[0.95rem] break-words" data-testid="selected-location">
                  {location.address ?? <span className="text-concrete-600">Looking up address…</span>}
                </span>
                <button
                  type="button"
                  className="inline-flex min-h-11 shrink-0 items-center rounded-full px-3 text-sm font-semibold text-danger-600 hover:bg-danger-50"
                  onClick={() => onRemove(location.id)}
                >
                  Remove<span className="sr-only"> {location.address ?? `location ${index + 1}`}</span>
                </button>
              </li>
            ))}
          </ol>
        )}
        <p className="sr-only" role="status">
          {announcement}
        </p>
      </div>
    </div>
  );
}

const MAP_HELP_ID = 'booking-map-help';

function CrossHair({ size }: { size: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="7" stroke="currentColor" strokeWidth="2" />
      <path d="M12 1v6M12 17v6M1 12h6M17 12h6" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function MapLoading() {
  return (
    <div className="flex h-full items-center justify-center gap-3 text-concrete-600" role="status">
      <svg className="animate-spin" width="20" height="20" viewBox="0 0 24 24" fill="none" aria-hidden="true">
        <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.25" strokeWidth="3" />
        <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      {MAP_LOADING}
    </div>
  );
}
