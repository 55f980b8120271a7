import type { Env } from './env.ts';

/**
 * The Content Security Policy of every page, in one place: each page may reach only what it uses.
 * Stripe only on /checkout, map tiles only where a map is drawn (/booking, /admin), Uploadcare
 * only where customers upload (/booking), a demo video's host only on /how-it-works; everything
 * else is this site's own origin. Address lookups go through this site's API, so no page needs the
 * geocoder.
 *
 * Each policy is sent twice, and both apply (a resource must pass both):
 * - as a header (`headerPolicy`): by the local server, and on Netlify through the `_headers` file
 *   the build writes (site-config.ts `netlifyHeadersFile`);
 * - in a <meta> element Astro writes into every page (`metaDirectives`, added by BaseLayout), so a
 *   page served where the host matches no header rule (the 404 page at an unknown address) keeps it.
 * script-src and style-src are the meta's alone: Astro hashes the site's own inline scripts and
 * styles there at build time, and a header that named scripts without those hashes would block
 * them. For the same reason the header has no default-src (it would stand in for script-src), and
 * lists every fetch directive itself instead. Scripts and styles allow no 'unsafe-inline' anywhere:
 * React and Leaflet set styles through the DOM (element.style), which CSP does not govern, and no
 * page renders a style attribute.
 */

export type PolicySettings = Pick<Env, 'PUBLIC_MAP_TILE_URL' | 'PUBLIC_DEMO_VIDEO_URL'>;

/** What a page needs beyond its own origin, per directive. */
interface PageNeeds {
  script?: readonly string[];
  connect?: readonly string[];
  img?: readonly string[];
  frame?: readonly string[];
  media?: readonly string[];
  /** Origins allowed to ask for payment (Permissions-Policy), besides the page itself. */
  payment?: readonly string[];
  /** The page itself may ask for the device's location (Permissions-Policy). */
  geolocation?: boolean;
  /**
   * The page's forms may meet a site-wide ceiling and solve its proof-of-work challenge in a web
   * worker of this site's own (src/islands/shared/challenge-worker.ts): worker-src 'self'.
   */
  worker?: boolean;
  /**
   * An installable web app: its manifest and its own service worker, both from this site. Only
   * /crew is one (public/crew-sw.js, scope /crew); no other page has a manifest or a service worker.
   */
  installable?: boolean;
}

const SELF = "'self'";
const NONE = "'none'";

/** Stripe.js and the Payment Element, as Stripe documents them for a Content Security Policy. */
const STRIPE: PageNeeds = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  connect: ['https://api.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  payment: ['https://js.stripe.com'],
};

/** The browser uploads straight to Uploadcare's upload API (src/islands/booking/upload.ts). */
const UPLOADCARE_UPLOAD = 'https://upload.uploadcare.com';

/** Map tiles, plus data: for the blank image Leaflet gives a tile it removes or abandons. */
function mapNeeds(settings: PolicySettings): PageNeeds {
  const tiles = sourceOfUrl(settings.PUBLIC_MAP_TILE_URL);
  return { img: tiles ? [tiles, 'data:'] : ['data:'] };
}

/** The pages that need more than the site's own origin, by the route BaseLayout is given. */
const PAGE_NEEDS: Record<string, (settings: PolicySettings) => PageNeeds> = {
  '/checkout': () => STRIPE,
  // A paid stencil change takes a card here; a PDF proof shows in a frame of this site's own.
  '/track-project': () => ({ ...STRIPE, frame: [SELF, ...STRIPE.frame!], worker: true }),
  '/booking': (settings) => ({ ...mapNeeds(settings), connect: [UPLOADCARE_UPLOAD], worker: true }),
  '/contact': () => ({ worker: true }),
  '/review': () => ({ worker: true }),
  // Sign-in under a flood of wrong passwords asks an unknown browser for proof of work too.
  '/admin': (settings) => ({ ...mapNeeds(settings), worker: true }),
  // The crew's day: its route map, and the phone's position on proof photos (asked for on the
  // first photo). The camera opens through <input capture>, which needs no camera permission.
  // It installs on the home screen and opens with no signal (public/crew-sw.js).
  '/crew': (settings) => ({ ...mapNeeds(settings), geolocation: true, installable: true }),
  // The demo video's source is a setting: a file on this site or on another host.
  '/how-it-works': (settings) => {
    const video = settings.PUBLIC_DEMO_VIDEO_URL ? sourceOfUrl(settings.PUBLIC_DEMO_VIDEO_URL) : undefined;
    return { media: video ? [SELF, video] : [SELF] };
  },
};

/** The route a request path or a page's route stands for: no trailing slash, no index.html. */
export function routeOf(path: string): string {
  const route = path.replace(/\/index\.html$/, '').replace(/\.html$/, '').replace(/\/+$/, '');
  return route === '' ? '/' : route;
}

function needsOf(path: string, settings: PolicySettings): PageNeeds {
  return PAGE_NEEDS[routeOf(path)]?.(settings) ?? {};
}

const sources = (base: string, extra: readonly string[] = []) => [...new Set([base, ...extra])].join(' ');

/** The page's directives other than script-src and style-src, in the order they are sent. */
function pageDirectives(path: string, settings: PolicySettings): string[] {
  const needs = needsOf(path, settings);
  return [
    `base-uri ${NONE}`,
    `object-src ${NONE}`,
    // Every form is sent by script; a form submitted before its island has loaded posts to the page.
    `form-action ${SELF}`,
    `connect-src ${sources(SELF, needs.connect)}`,
    `img-src ${sources(SELF, needs.img)}`,
    `font-src ${SELF}`,
    needs.media ? `media-src ${sources(SELF, needs.media)}` : `media-src ${NONE}`,
    needs.frame ? `frame-src ${needs.frame.join(' ')}` : `frame-src ${NONE}`,
    `worker-src ${needs.worker || needs.installable ? SELF : NONE}`,
    `manifest-src ${needs.installable ? SELF : NONE}`,
  ];
}

/** The Content-Security-Policy header of a page (scripts and styles are left to the meta policy). */
export function headerPolicy(path: string, settings: PolicySettings): string {
  return [...pageDirectives(path, settings), `frame-ancestors ${NONE}`].join('; ');
}

/**
 * The directives BaseLayout adds to the page's <meta> policy, next to Astro's script-src and
 * style-src. A meta policy may say default-src (its scripts and styles are named), but not
 * frame-ancestors, which browsers ignore there and warn about.
 */
export function metaDirectives(path: string, settings: PolicySettings): string[] {
  return [`default-src ${NONE}`, ...pageDirectives(path, settings)];
}

/** Script origins the page loads besides its own (the meta policy's script-src). */
export function scriptSources(path: string, settings: PolicySettings): readonly string[] {
  return needsOf(path, settings).script ?? [];
}

/**
 * No page uses the camera or microphone; only /crew may ask for the location (for itself, not for
 * a frame), only /checkout may take a payment.
 */
export function permissionsPolicy(path: string, settings: PolicySettings): string {
  const needs = needsOf(path, settings);
  const paymentAllow = needs.payment ? `(self ${needs.payment.map((origin) => `"${origin}"`).join(' ')})` : '()';
  return `camera=(), microphone=(), geolocation=${needs.geolocation ? '(self)' : '()'}, payment=${paymentAllow}`;
}

/**
 * Every API answer (JSON, photos, downloads): nothing may load, nothing may frame it, and a
 * response opened as a document runs sandboxed.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * The CSP source for the host of a URL or tile template: 'self' for a path on this site, the
 * scheme and host otherwise. A templated host label (`{s}.tile.openstreetmap.org`) becomes a
 * wildcard for it and every label to its left, since CSP allows a wildcard only leftmost.
 */
export function sourceOfUrl(url: string): string | undefined {
  if (url.startsWith('/') && !url.startsWith('//')) return SELF;
  // A protocol-relative URL (//host/...) keeps the page's scheme, as a source without one does.
  const match = /^(https?:)?\/\/([^/?#]+)/i.exec(url);
  if (!match) return undefined;
  const [, scheme = '', host = ''] = match;
  const labels = host.toLowerCase().split('.');
  let lastTemplated = -1;
  labels.forEach((label, index) => {
    if (label.includes('{')) lastTemplated = index;
  });
  const prefix = scheme ? `${scheme}//` : '';
  if (lastTemplated === -1) return `${prefix}${host.toLowerCase()}`;
  const fixed = labels.slice(lastTemplated + 1);
  // A host that is all template cannot be narrowed to a name: allow the scheme alone.
  if (fixed.length === 0) return scheme || 'https:';
  return `${prefix}*.${fixed.join('.')}`;
}
