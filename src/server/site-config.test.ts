import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  IMMUTABLE_CACHE,
  PAGE_CACHE,
  REDIRECTS,
  REWRITES,
  SITE_HEADERS,
  netlifyHeadersFile,
  pageHeaders,
} from './site-config.ts';
import type { PolicySettings } from './csp.ts';

/** netlify.toml is what production serves; the local server uses site-config.ts. They must agree. */
const toml = readFileSync(new URL('../../netlify.toml', import.meta.url), 'utf8');

const settings: PolicySettings = {
  PUBLIC_MAP_TILE_URL: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
  PUBLIC_DEMO_VIDEO_URL: undefined,
};

/** What the build passes: Astro's page paths, endpoints included. */
const BUILT_PAGES = ['/', '/404/', '/about/', '/admin/', '/booking/', '/checkout/', '/crew/', '/gallery/', '/gallery/project/', '/robots.txt'];

interface Rule {
  path: string;
  headers: Map<string, string>;
}

function parseHeadersFile(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('/')) rules.push({ path: line, headers: new Map() });
    else if (line.startsWith('  ')) {
      const [name, ...value] = line.trim().split(': ');
      rules.at(-1)!.headers.set(name!, value.join(': '));
    }
  }
  return rules;
}

/** Netlify's rule-path matching: `*` any rest, `:name` one segment, an optional trailing slash. */
function ruleMatches(rulePath: string, address: string): boolean {
  const parts = rulePath
    .split('/')
    .filter(Boolean)
    .map((part) =>
      part === '*' ? '?(.*)' : part.startsWith(':') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    );
  return new RegExp(`^/${parts.join('/')}/?$`, 'i').test(address);
}

describe('netlify.toml matches the local server', () => {
  it('sets no headers itself: they come from the file the build writes, which it would override', () => {
    expect(toml).not.toMatch(/^\s*\[\[headers\]\]/m);
  });

  it.each(REDIRECTS)('redirects $from to $to', ({ from, to, status }) => {
    expect(toml).toMatch(new RegExp(`from = "${from}"\\s+to = "${to.replace(/[#/]/g, '\\$&')}"\\s+status = ${status}`));
  });

  it('answers a direct request for /404 with status 404, as the local server does', () => {
    expect(toml).toMatch(/from = "\/404"\s+to = "\/404\.html"\s+status = 404\s+force = true/);
  });

  it.each(REWRITES)('serves $to at $from, before the 404 catch-all', ({ from, to, status }) => {
    const rule = `from = "${from}"\n  to = "${to}"\n  status = ${status}`;
    expect(toml).toContain(rule);
    expect(toml.indexOf(rule)).toBeLessThan(toml.indexOf('from = "/*"'));
  });
});

describe("the build's _headers file for Netlify", () => {
  const rules = parseHeadersFile(netlifyHeadersFile(BUILT_PAGES, settings));
  const headersFor = (address: string) => rules.filter((rule) => ruleMatches(rule.path, address));

  it('sends every file the shared headers', () => {
    const everything = rules.find((rule) => rule.path === '/*')!;
    expect(Object.fromEntries(everything.headers)).toEqual(SITE_HEADERS);
  });

  it.each(['/', '/about', '/checkout', '/checkout/', '/booking', '/admin/', '/gallery', '/gallery/42', '/404'])(
    '%s gets the policy the local server sends, from exactly one rule',
    (address) => {
      const matching = headersFor(address).filter((rule) => rule.headers.has('Content-Security-Policy'));
      const values = new Set(matching.map((rule) => rule.headers.get('Content-Security-Policy')));
      expect(values).toEqual(new Set([pageHeaders(address, settings)['Content-Security-Policy']]));
      const permissions = new Set(matching.map((rule) => rule.headers.get('Permissions-Policy')));
      expect(permissions).toEqual(new Set([pageHeaders(address, settings)['Permissions-Policy']]));
    },
  );

  it('gives /crew no Referer and no storage, from exactly one rule each', () => {
    for (const address of ['/crew', '/crew/']) {
      const referrer = headersFor(address).flatMap((rule) => (rule.headers.has('Referrer-Policy') ? [rule.headers.get('Referrer-Policy')] : []));
      expect(referrer).toEqual(['no-referrer']);
    }
    const elsewhere = headersFor('/about').flatMap((rule) => (rule.headers.has('Referrer-Policy') ? [rule.headers.get('Referrer-Policy')] : []));
    expect(elsewhere).toEqual(['strict-origin-when-cross-origin']);
  });

  it('keeps Stripe to /checkout and map tiles to the pages with a map', () => {
    const csp = (address: string) => headersFor(address).map((rule) => rule.headers.get('Content-Security-Policy') ?? '').join(' ');
    expect(csp('/checkout')).toContain('https://api.stripe.com');
    for (const address of ['/', '/booking', '/admin', '/gallery/42']) expect(csp(address)).not.toContain('stripe.com');
    expect(csp('/booking')).toContain('tile.openstreetmap.org');
    expect(csp('/admin')).toContain('tile.openstreetmap.org');
    expect(csp('/checkout')).not.toContain('tile.openstreetmap.org');
  });

  it('caches pages and fingerprinted assets with one Cache-Control each', () => {
    for (const [address, cache] of [
      ['/about', PAGE_CACHE],
      ['/crew', 'no-store'],
      ['/booking/', PAGE_CACHE],
      ['/_astro/frame.abc123.js', IMMUTABLE_CACHE],
    ] as const) {
      const values = headersFor(address)
        .map((rule) => rule.headers.get('Cache-Control'))
        .filter(Boolean);
      expect(values).toEqual([cache]);
    }
  });

  it('writes no rule for endpoints that are not pages', () => {
    expect(rules.map((rule) => rule.path)).not.toContain('/robots.txt');
  });
});
