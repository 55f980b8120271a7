import { useEffect } from 'react';
import L from 'leaflet';
import { MapContainer, Marker, Polyline, TileLayer, useMap } from 'react-leaflet';
import type { MapTiles } from './map-tiles.ts';

// A small map of one route group, stops numbered in visiting order. Loaded with import() by the
// Locations tab only, so Leaflet (which needs `window`) is never part of the dashboard's first
// bundle. Read-only: the list beside it carries the same facts for keyboard and screen readers.

export interface RouteMapStop {
  number: number;
  label: string;
  lat: number;
  lng: number;
}

// Inline SVG/markup only, no style attributes (the page's CSP refuses inline styles in markup).
const stopIcon = (number: number) =>
  L.divIcon({
    className: 'route-stop',
    html: `<span class="flex h-7 w-7 items-center justify-center rounded-full border-2 border-white bg-ink text-xs font-bold text-white shadow">${number}</span>`,
    iconSize: [28, 28],
    iconAnchor: [14, 14],
  });

function FitStops({ stops }: { stops: readonly RouteMapStop[] }) {
  const map = useMap();
  useEffect(() => {
    if (stops.length === 0) return;
    map.fitBounds(L.latLngBounds(stops.map((stop) => [stop.lat, stop.lng] as [number, number])), { padding: [24, 24], maxZoom: 15 });
  }, [map, stops]);
  return null;
}

export default function RouteMap({ stops, tiles }: { stops: readonly RouteMapStop[]; tiles: MapTiles }) {
  const first = stops[0]!;
  return (
    <MapContainer
      center={[first.lat, first.lng]}
      zoom={13}
      scrollWheelZoom={false}
      keyboard={false}
      className="h-full w-full"
    >
      <TileLayer url={tiles.tileUrl} attribution={tiles.attribution} />
      <FitStops stops={stops} />
      <Polyline positions={stops.map((stop) => [stop.lat, stop.lng] as [number, number])} pathOptions={{ color: '#0d8862', weight: 3 }} />
      {stops.map((stop) => (
        <Marker key={`${stop.number}`} position={[stop.lat, stop.lng]} icon={stopIcon(stop.number)} title={`${stop.number}. ${stop.label}`} keyboard={false} />
      ))}
    </MapContainer>
  );
}
