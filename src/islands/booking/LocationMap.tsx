import { useEffect, useMemo } from 'react';
import L, { type LeafletEvent, type LeafletMouseEvent, type Marker as LeafletMarker } from 'leaflet';
import { MapContainer, Marker, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import type { SelectedLocation } from './booking-store.ts';

// The booking map (public-site.md §4 "Map", §7): loaded lazily by LocationPicker, with Leaflet's
// CSS, so neither is part of the form's first bundle or the page's head. Clicking the map adds a pin, clicking a
// pin removes it, dragging a pin moves it; the parent looks the addresses up. By keyboard the map
// is one tab stop that pans with the arrow keys (Leaflet's keyboard handler) and the parent's
// 'Add a pin at the map centre' button places the pin.

/** Newcastle upon Tyne: the spec's fixed north-east England centre, at zoom 13. */
export const MAP_CENTER: [number, number] = [54.9783, -1.6178];
export const MAP_ZOOM = 13;

export interface MapFocus {
  lat: number;
  lng: number;
  /** Changes on every request, so picking the same place twice still moves the map. */
  seq: number;
}

export interface LocationMapProps {
  tileUrl: string;
  attribution: string;
  locations: readonly SelectedLocation[];
  focus: MapFocus | null;
  onAdd: (lat: number, lng: number) => void;
  onRemove: (id: number) => void;
  onMove: (id: number, lat: number, lng: number) => void;
  /** Called once the map exists with a way to read its centre, and with null when it goes. */
  onReady: (centre: (() => { lat: number; lng: number }) | null) => void;
  /** The id of the text that explains how to use the map, by mouse and by keyboard. */
  describedBy: string;
}

// Leaflet's default marker images break under bundlers (their URLs are guessed from the CSS), so
// the pin is an inline SVG. No style attributes: the page's CSP refuses inline styles in markup.
const PIN_ICON = L.divIcon({
  className: 'booking-pin',
  html:
    '<svg width="34" height="46" viewBox="0 0 34 46" aria-hidden="true" focusable="false">' +
    '<path d="M17 45c-1.2-7.2-15-17.1-15-28.2C2 8.4 8.7 2 17 2s15 6.4 15 14.8C32 27.9 18.2 37.8 17 45z" fill="#121614" stroke="#ffffff" stroke-width="2.5"/>' +
    '<circle cx="17" cy="17" r="6.5" fill="#34c796"/></svg>',
  iconSize: [34, 46],
  iconAnchor: [17, 45],
});

function ClickToAdd({ onAdd }: { onAdd: LocationMapProps['onAdd'] }) {
  useMapEvents({
    click(event: LeafletMouseEvent) {
      onAdd(event.latlng.lat, event.latlng.lng);
    },
  });
  return null;
}

function FollowFocus({ focus }: { focus: MapFocus | null }) {
  const map = useMap();
  useEffect(() => {
    if (focus) map.setView([focus.lat, focus.lng], Math.max(map.getZoom(), MAP_ZOOM));
  }, [map, focus]);
  return null;
}

/** One labelled tab stop: Leaflet makes the container focusable for its arrow-key panning. */
function NameTheMap({ describedBy }: { describedBy: string }) {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    container.tabIndex = 0;
    container.setAttribute('role', 'region');
    container.setAttribute('aria-label', 'Map of locations');
    container.setAttribute('aria-describedby', describedBy);
  }, [map, describedBy]);
  return null;
}

function ReportCentre({ onReady }: { onReady: LocationMapProps['onReady'] }) {
  const map = useMap();
  useEffect(() => {
    onReady(() => map.getCenter());
    return () => onReady(null);
  }, [map, onReady]);
  return null;
}

function LocationPin({
  location,
  onRemove,
  onMove,
}: {
  location: SelectedLocation;
  onRemove: LocationMapProps['onRemove'];
  onMove: LocationMapProps['onMove'];
}) {
  const handlers = useMemo(
    () => ({
      click: () => onRemove(location.id),
      dragend: (event: LeafletEvent) => {
        const { lat, lng } = (event.target as LeafletMarker).getLatLng();
        onMove(location.id, lat, lng);
      },
    }),
    [location.id, onRemove, onMove],
  );
  return (
    <Marker
      position={[location.lat, location.lng]}
      icon={PIN_ICON}
      draggable
      // The locations list gives keyboard users the same remove action, so pins are not tab stops.
      keyboard={false}
      title={location.address ? `${location.address} (click to remove)` : 'Looking up address (click to remove)'}
      eventHandlers={handlers}
    />
  );
}

export default function LocationMap({
  tileUrl,
  attribution,
  locations,
  focus,
  onAdd,
  onRemove,
  onMove,
  onReady,
  describedBy,
}: LocationMapProps) {
  return (
    <MapContainer
      center={MAP_CENTER}
      zoom={MAP_ZOOM}
      scrollWheelZoom={false}
      // The wrapper clips overflow, so the focus ring is drawn inside the map's edge ('!': Leaflet's
      // own unlayered CSS sets an outline offset that would beat a layered utility).
      className="h-full w-full focus-visible:-outline-offset-4!"
    >
      <TileLayer url={tileUrl} attribution={attribution} />
      <NameTheMap describedBy={describedBy} />
      <ReportCentre onReady={onReady} />
      <ClickToAdd onAdd={onAdd} />
      <FollowFocus focus={focus} />
      {locations.map((location) => (
        <LocationPin key={location.id} location={location} onRemove={onRemove} onMove={onMove} />
      ))}
    </MapContainer>
  );
}
