import { describe, expect, it } from 'vitest';
import {
  API_CONTENT_SECURITY_POLICY,
  headerPolicy,
  metaDirectives,
  permissionsPolicy,
  routeOf,
  scriptSources,
  sourceOfUrl,
  type PolicySettings,
} from './csp.ts';

const settings: PolicySettings = {
  PUBLIC_MAP_TILE_URL: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
  PUBLIC_DEMO_VIDEO_URL: undefined,
};

/** A header policy as a map from directive to its sources. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

const PLAIN_PAGES = ['/', '/about', '/pricing', '/gallery', '/gallery/[id]', '/payment-success', '/404'];
const PAGES_WITH_CHALLENGE = ['/booking', '/contact', '/track-project', '/review', '/admin'];
const ALL_PAGES = [...PLAIN_PAGES, '/track-project', '/checkout', '/booking', '/admin', '/how-it-works', '/crew'];

describe('page policies', () => {
  it.each(ALL_PAGES)('%s refuses plugins, base changes, framing and foreign form targets', (page) => {
    const policy = directives(headerPolicy(page, settings));
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    // The pages whose forms may solve a proof-of-work challenge run a worker of their own; the
    // crew's page has its service worker and a manifest (an installable app, scope /crew).
    expect(policy.get('worker-src')).toEqual(PAGES_WITH_CHALLENGE.includes(page) || page === '/crew' ? ["'self'"] : ["'none'"]);
    expect(policy.get('manifest-src')).toEqual([page === '/crew' ? "'self'" : "'none'"]);
    // Scripts and styles are the meta policy's (Astro's hashes); a header default-src would block them.
    expect(policy.has('script-src')).toBe(false);
    expect(policy.has('default-src')).toBe(false);
    expect(headerPolicy(page, settings)).not.toContain('unsafe-inline');
    expect(headerPolicy(page, settings)).not.toContain('unsafe-eval');
  });

  it.each(PLAIN_PAGES)('%s reaches nothing but this site', (page) => {
    const policy = directives(headerPolicy(page, settings));
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('img-src')).toEqual(["'self'"]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    expect(policy.get('media-src')).toEqual(["'none'"]);
    expect(scriptSources(page, settings)).toEqual([]);
    expect(permissionsPolicy(page, settings)).toBe('camera=(), microphone=(), geolocation=(), payment=()');
  });

  it('lets /checkout load Stripe.js, call Stripe, frame its fields and ask for payment', () => {
    const policy = directives(headerPolicy('/checkout', settings));
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://api.stripe.com']);
    expect(policy.get('frame-src')).toEqual(['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com']);
    expect(policy.get('img-src')).toEqual(["'self'"]);
    expect(scriptSources('/checkout', settings)).toEqual(['https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(permissionsPolicy('/checkout', settings)).toContain('payment=(self "https://js.stripe.com")');
  });

  it('lets /track-project take a stencil change payment through Stripe and frame its own PDF proofs', () => {
    const policy = directives(headerPolicy('/track-project', settings));
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://api.stripe.com']);
    expect(policy.get('frame-src')).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com']);
    expect(policy.get('img-src')).toEqual(["'self'"]);
    expect(scriptSources('/track-project', settings)).toEqual(['https://js.stripe.com', 'https://*.js.stripe.com']);
  });

  it('lets /booking draw map tiles and upload to Uploadcare, and nothing from Stripe', () => {
    const policy = directives(headerPolicy('/booking', settings));
    expect(policy.get('img-src')).toEqual(["'self'", 'https://*.tile.openstreetmap.org', 'data:']);
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://upload.uploadcare.com']);
    expect(headerPolicy('/booking', settings)).not.toContain('stripe');
    expect(scriptSources('/booking', settings)).toEqual([]);
  });

  it('lets /admin draw map tiles but not upload to Uploadcare', () => {
    const policy = directives(headerPolicy('/admin', settings));
    expect(policy.get('img-src')).toEqual(["'self'", 'https://*.tile.openstreetmap.org', 'data:']);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
  });

  it('lets /crew draw its route map and ask for the location for itself, and nothing more', () => {
    const policy = directives(headerPolicy('/crew', settings));
    expect(policy.get('img-src')).toEqual(["'self'", 'https://*.tile.openstreetmap.org', 'data:']);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    expect(scriptSources('/crew', settings)).toEqual([]);
    // The camera opens through <input type=file capture>, which needs no camera permission.
    expect(permissionsPolicy('/crew', settings)).toBe('camera=(), microphone=(), geolocation=(self), payment=()');
  });

  it('follows the tile setting: another host, or tiles served by this site', () => {
    const custom = { ...settings, PUBLIC_MAP_TILE_URL: 'https://tiles.example.net/styles/{z}/{x}/{y}.png?key=abc' };
    expect(directives(headerPolicy('/booking', custom)).get('img-src')).toEqual(["'self'", 'https://tiles.example.net', 'data:']);
    const own = { ...settings, PUBLIC_MAP_TILE_URL: '/tiles/{z}/{x}/{y}.png' };
    expect(directives(headerPolicy('/admin', own)).get('img-src')).toEqual(["'self'", 'data:']);
  });

  it('plays the demo video on /how-it-works from its configured host only', () => {
    expect(directives(headerPolicy('/how-it-works', settings)).get('media-src')).toEqual(["'self'"]);
    const withVideo = { ...settings, PUBLIC_DEMO_VIDEO_URL: 'https://media.example.org/demo.mp4' };
    expect(directives(headerPolicy('/how-it-works', withVideo)).get('media-src')).toEqual(["'self'", 'https://media.example.org']);
    expect(directives(headerPolicy('/', withVideo)).get('media-src')).toEqual(["'none'"]);
  });

  it('finds a page by its address with or without a trailing slash or index.html', () => {
    for (const address of ['/checkout', '/checkout/', '/checkout/index.html']) {
      expect(routeOf(address)).toBe('/checkout');
      expect(headerPolicy(address, settings)).toBe(headerPolicy('/checkout', settings));
    }
    expect(routeOf('/')).toBe('/');
    expect(routeOf('/index.html')).toBe('/');
  });

  it('writes the same page policy into the meta element, without frame-ancestors and with default-src none', () => {
    const meta = metaDirectives('/booking', settings);
    expect(meta[0]).toBe("default-src 'none'");
    expect(meta.some((directive) => directive.startsWith('frame-ancestors'))).toBe(false);
    expect(meta.slice(1).join('; ')).toBe(headerPolicy('/booking', settings).replace("; frame-ancestors 'none'", ''));
  });

  it('gives API answers a policy that loads nothing and cannot be framed', () => {
    expect(API_CONTENT_SECURITY_POLICY).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
  });
});

describe('sourceOfUrl', () => {
  it.each([
    ['https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', 'https://*.tile.openstreetmap.org'],
    ['https://tile-{s}.maps.example.com/{z}/{x}/{y}.png', 'https://*.maps.example.com'],
    ['https://a.{s}.example.com/{z}.png', 'https://*.example.com'],
    ['https://Tiles.Example.com:8443/{z}/{x}/{y}.png', 'https://tiles.example.com:8443'],
    ['https://{s}/{z}.png', 'https:'],
    ['/tiles/{z}/{x}/{y}.png', "'self'"],
    ['//{s}.cdn.example.com/{z}.png', '*.cdn.example.com'],
    ['javascript:alert(1)', undefined],
  ])('%s → %s', (url, source) => {
    expect(sourceOfUrl(url)).toBe(source);
  });
});
