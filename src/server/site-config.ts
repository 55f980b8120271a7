import { headerPolicy, permissionsPolicy, routeOf, type PolicySettings } from './csp.ts';

/**
 * Headers and redirects for the static site, in one place. The local server applies these; for
 * Netlify the build writes the same headers into dist/_headers (`netlifyHeadersFile`, called from
 * astro.config.mjs), and netlify.toml carries the redirects (a unit test keeps them equal).
 */

/** Headers every static file gets, pages and assets alike. */
export const SITE_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
};

/**
 * Pages whose address carries a secret (the crew link's ?t=, until the page moves it to the
 * phone): no Referer leaves them, not even to this site's own assets and page-view beacon, and
 * neither a shared cache nor the browser's disk keeps them.
 */
export const SECRET_ADDRESS_PAGES: readonly string[] = ['/crew'];
const isSecretAddressPage = (path: string) => SECRET_ADDRESS_PAGES.includes(routeOf(path));

export function referrerPolicy(path: string): string {
  return isSecretAddressPage(path) ? 'no-referrer' : 'strict-origin-when-cross-origin';
}

/** The headers that differ from page to page (src/server/csp.ts). */
export function pageHeaders(path: string, settings: PolicySettings): Record<string, string> {
  return {
    'Content-Security-Policy': headerPolicy(path, settings),
    'Permissions-Policy': permissionsPolicy(path, settings),
    'Referrer-Policy': referrerPolicy(path),
  };
}

/** Fingerprinted build assets never change; pages are revalidated on every visit. */
export const IMMUTABLE_ASSET_PREFIX = '/_astro/';
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const PAGE_CACHE = 'public, max-age=0, must-revalidate';
export const NO_STORE = 'no-store';

/** A page's Cache-Control: revalidated on every visit, or never stored (SECRET_ADDRESS_PAGES). */
export function pageCache(path: string): string {
  return isSecretAddressPage(path) ? NO_STORE : PAGE_CACHE;
}

export interface Redirect {
  from: string;
  to: string;
  status: 301 | 302;
}

/** Friendly aliases people type or old links use. */
export const REDIRECTS: readonly Redirect[] = [
  { from: '/book', to: '/booking', status: 301 },
  { from: '/faq', to: '/how-it-works#faq', status: 301 },
  { from: '/our-work', to: '/gallery', status: 301 },
  { from: '/track', to: '/track-project', status: 301 },
];

export interface Rewrite {
  from: string;
  to: string;
  status: 200;
}

/**
 * Many addresses served by one pre-rendered shell, with status 200 and the address kept: every
 * /gallery/{id} is the public project page, whose island reads the id from the address. Like
 * Netlify's unforced rules, a real file at the address still wins.
 */
export const REWRITES: readonly Rewrite[] = [{ from: '/gallery/:id', to: '/gallery/project/', status: 200 }];

/**
 * Netlify's `_headers` file for the built pages. Each page gets its own rule, and no two rules
 * that can match one address set a header differently: where several rules match, Netlify's
 * documentation does not promise that a later one replaces an earlier one's header, and two
 * Content-Security-Policy headers would both be enforced. So the site-wide rule carries only what
 * every file shares; the policy and the page cache go on each page's rule, and fingerprinted
 * assets' cache on theirs (other files get Netlify's default, the same as PAGE_CACHE). A rule for
 * `/checkout` also matches `/checkout/`: Netlify's rule paths take an optional trailing slash.
 * Rewritten addresses (`/gallery/:id`) get the rule of the page they show.
 */
export function netlifyHeadersFile(pagePaths: readonly string[], settings: PolicySettings): string {
  const rule = (path: string, headers: Record<string, string>) =>
    [path, ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`)].join('\n');
  const page = (path: string) => ({ ...pageHeaders(path, settings), 'Cache-Control': pageCache(path) });
  // Endpoints such as /robots.txt are not pages.
  const routes = [...new Set(pagePaths.map(routeOf))].filter((route) => !/\.\w+$/.test(route)).sort();
  return [
    '# Written by the build from src/server/site-config.ts and src/server/csp.ts; do not edit.',
    rule('/*', SITE_HEADERS),
    rule(`${IMMUTABLE_ASSET_PREFIX}*`, { 'Cache-Control': IMMUTABLE_CACHE }),
    ...routes.map((route) => rule(route, page(route))),
    ...REWRITES.map(({ from, to }) => rule(from, page(to))),
    '',
  ].join('\n\n');
}
