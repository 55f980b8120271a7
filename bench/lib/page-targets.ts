/**
 * What the Lighthouse bench measures: a list of pages, each a path and, where the page needs
 * state to show what a user sees, a `prepare` step that runs against the bench's own server
 * first and returns the path to open (e.g. with a seeded token) and headers to send (e.g. the
 * admin's session cookie). A page that needs a link from the demo data opens the link the seed
 * printed, e.g. a crew member's day:
 *
 *   { label: '/crew (a link)', path: '/crew', prepare: seededLink(/\/crew\?t=/) },
 */
import type { LocalSite } from '../local-site.ts';

export interface PreparedPage {
  /** Path and query to open; the target's own path when absent. */
  path?: string;
  /** Sent with every request of the page (Lighthouse's extraHeaders). */
  headers?: Record<string, string>;
}

export interface PageTarget {
  /** How the page is named in the table and on the command line (the path when absent). */
  label?: string;
  path: string;
  prepare?: (site: LocalSite) => Promise<PreparedPage>;
}

export const labelOf = (target: PageTarget) => target.label ?? target.path;

/** Opens the first link the demo data's seed printed that matches `pattern`, on the bench's server. */
export function seededLink(pattern: RegExp): NonNullable<PageTarget['prepare']> {
  return async (site) => {
    const line = site.seedOutput?.split('\n').find((candidate) => pattern.test(candidate));
    const link = line && /https?:\/\/\S+/.exec(line)?.[0];
    if (!link) throw new Error(`The demo data printed no link matching ${pattern} (measure it on the bench's own server)`);
    const url = new URL(link);
    return { path: `${url.pathname}${url.search}` };
  };
}

/** Signs in as the admin through the API, as the sign-in form does, and sends its session cookie. */
export const signedInAdmin: NonNullable<PageTarget['prepare']> = async (site) => {
  if (!site.adminPassword) throw new Error('No admin password known (measure it on the bench\'s own server)');
  const response = await fetch(`${site.baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: site.baseUrl },
    body: JSON.stringify({ password: site.adminPassword }),
  });
  const cookie = response.headers.getSetCookie().map((header) => header.split(';')[0]!).join('; ');
  if (!response.ok || !cookie) throw new Error(`Admin sign-in answered ${response.status}`);
  return { headers: { Cookie: cookie } };
};
