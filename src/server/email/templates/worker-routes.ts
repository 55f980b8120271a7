import { BUSINESS } from '../../../content/business.ts';
import { workHoursLabel } from '../../../domain/crew.ts';
import { formatLongDate } from '../../../domain/format.ts';
import type { EmailMessage } from '../../providers/email-outbox.ts';
import { escapeHtml, layout, oneLine, plural, text } from './layout.ts';

// The 6 PM e-mail to an installer (admin-dashboard.md §2 Workers tab): the link to their day on
// /crew first, then the routes, one section per route, stops in visiting order with the customer,
// postcode, day or night work and its hours, addresses and a link that opens the route in a
// phone's maps app.

export interface WorkerEmailRoute {
  routeNumber: number;
  stops: number;
  distanceKm: number | null;
  mapsUrl: string | null;
  bookings: { bookingId: number; customerName: string; postcode: string | null; addresses: string[]; workType: 'day' | 'night' }[];
}

export interface WorkerEmailContext {
  to: string;
  name: string | null;
  /** The London date the routes are for, 'YYYY-MM-DD'. */
  date: string;
  routes: WorkerEmailRoute[];
  /** Same key → one e-mail (the outbox's dedupe). */
  dedupeKey: string;
  /** The worker's link to their day on /crew; null for an address that is no worker's. */
  crewUrl?: string | null;
}

function distanceText(route: WorkerEmailRoute): string {
  return route.distanceKm === null ? 'distance unknown' : `about ${route.distanceKm} km between stops`;
}

export function workerRoutesEmail({ to, name, date, routes, dedupeKey, crewUrl = null }: WorkerEmailContext): EmailMessage {
  const longDate = formatLongDate(date);
  const stops = routes.reduce((total, route) => total + route.stops, 0);
  const greeting = `Hello${name ? ` ${oneLine(name)}` : ''},`;
  const intro = `Here are your installations for ${longDate}, in the order to visit them.`;
  const crewIntro = 'Open your day on your phone: tell each customer you are on your way, take the before and after photos, and mark each stop done.';
  const crewLifetime = 'The link is yours alone and works until 12:00 the day after. Please do not forward it.';
  const routeStops = (route: WorkerEmailRoute) => `${route.stops} stop${plural(route.stops)}`;

  const plain = text([
    greeting,
    '',
    intro,
    ...(crewUrl ? ['', crewIntro, crewUrl, crewLifetime] : []),
    ...routes.flatMap((route) => [
      '',
      `ROUTE ${route.routeNumber} (${routeStops(route)}, ${distanceText(route)})`,
      ...route.bookings.flatMap((booking, index) => [
        `${index + 1}. ${booking.customerName}${booking.postcode ? ` (${booking.postcode})` : ''}, booking #${booking.bookingId}`,
        `   ${workHoursLabel(booking.workType)}`,
        ...booking.addresses.map((address) => `   - ${address}`),
      ]),
      ...(route.mapsUrl ? [`Open route in Maps: ${route.mapsUrl}`] : []),
    ]),
    '',
    BUSINESS.legalName,
  ]);

  const routeHtml = (route: WorkerEmailRoute) => {
    const stopsHtml = route.bookings
      .map(
        (booking) =>
          `<li><strong>${escapeHtml(booking.customerName)}</strong>${booking.postcode ? ` (${escapeHtml(booking.postcode)})` : ''}, booking #${booking.bookingId}<br><em>${escapeHtml(workHoursLabel(booking.workType))}</em><br>${booking.addresses.map(escapeHtml).join('<br>')}</li>`,
      )
      .join('');
    return `<h2 style="font-size:18px">Route ${route.routeNumber} <small style="font-weight:normal">(${routeStops(route)}, ${escapeHtml(distanceText(route))})</small></h2>
<ol>${stopsHtml}</ol>
${route.mapsUrl ? `<p><a href="${escapeHtml(route.mapsUrl)}">Open route ${route.routeNumber} in Maps</a></p>` : ''}`;
  };
  const html = layout(`<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
${crewUrl ? `<p>${escapeHtml(crewIntro)}</p>\n<p><a href="${escapeHtml(crewUrl)}" style="display:inline-block;padding:12px 20px;border-radius:999px;background:#111;color:#fff;font-weight:bold;text-decoration:none">Open my day</a></p>\n<p style="font-size:13px;color:#555">${escapeHtml(crewLifetime)}</p>` : ''}
${routes.map(routeHtml).join('\n')}
<p>${escapeHtml(BUSINESS.legalName)}</p>`);

  return {
    to,
    subject: `Your routes for ${longDate}: ${routes.length} route${plural(routes.length)}, ${stops} stop${plural(stops)}`,
    text: plain,
    html,
    kind: 'worker-routes',
    dedupeKey,
  };
}
