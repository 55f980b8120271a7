import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IMMUTABLE_CACHE, PAGE_CACHE, REDIRECTS, REWRITES, SITE_HEADERS } from './site-config.ts';

/** netlify.toml is what production serves; the local server uses site-config.ts. They must agree. */
const toml = readFileSync(new URL('../../netlify.toml', import.meta.url), 'utf8');

function headerValue(name: string): string | undefined {
  const match = toml.match(new RegExp(`^\\s*${name} = "((?:[^"\\\\]|\\\\.)*)"`, 'm'));
  return match?.[1]?.replace(/\\"/g, '"');
}

describe('netlify.toml matches the local server', () => {
  it.each(Object.entries(SITE_HEADERS))('sends %s with the same value', (name, value) => {
    expect(headerValue(name)).toBe(value);
  });

  it('caches pages and fingerprinted assets the same way', () => {
    expect(toml).toContain(`Cache-Control = "${PAGE_CACHE}"`);
    expect(toml).toContain(`Cache-Control = "${IMMUTABLE_CACHE}"`);
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
