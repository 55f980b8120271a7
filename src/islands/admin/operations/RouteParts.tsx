// Pieces that the Locations tab's route groups and the Workers tab's preview of tomorrow both
// show for a route: each stop's postcode and booking number, its addresses, and the link that
// opens the route in a phone's maps app.

export function StopMeta({ postcode, bookingId }: { postcode: string | null; bookingId: number }) {
  return (
    <>
      {postcode && <span className="font-normal text-concrete-600"> · {postcode}</span>}
      <span className="font-normal text-concrete-600"> · #{bookingId}</span>
    </>
  );
}

export function StopAddresses({ addresses, shown, className = '' }: { addresses: string[]; shown: number; className?: string }) {
  return (
    <ul className={`text-concrete-700 ${className}`.trim()}>
      {addresses.slice(0, shown).map((address) => (
        <li key={address} className="break-words">
          {address}
        </li>
      ))}
    </ul>
  );
}

export function OpenRouteLink({ url, routeNumber, className }: { url: string; routeNumber: number; className: string }) {
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" className={className}>
      Open route in Maps<span className="sr-only"> (route {routeNumber}, opens in a new tab)</span>
    </a>
  );
}
