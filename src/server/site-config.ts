/**
 * Headers and redirects for the static site, in one place. netlify.toml carries the same
 * values for production (a unit test keeps the two equal); the local server applies these.
 *
 * The Content-Security-Policy header deliberately leaves script-src and style-src out:
 * Astro writes those per page into a <meta> policy with the hashes of its own inline
 * scripts and styles (astro.config.mjs, security.csp). Both policies apply, so the page
 * gets the meta's script/style rules plus this header's rules for everything else.
 */
export const CONTENT_SECURITY_POLICY = [
  "base-uri 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "font-src 'self'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' https:",
  "connect-src 'self' https://api.stripe.com https://upload.uploadcare.com https://api.uploadcare.com",
  'frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com',
  "worker-src 'self' blob:",
  "manifest-src 'self'",
].join('; ');

export const SITE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(self), payment=(self "https://js.stripe.com")',
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
};

/** Fingerprinted build assets never change; pages are revalidated on every visit. */
export const IMMUTABLE_ASSET_PREFIX = '/_astro/';
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const PAGE_CACHE = 'public, max-age=0, must-revalidate';

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
