import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';
import { parseEnv } from '../../src/server/env.ts';
import { IMMUTABLE_CACHE, pageCache, pageHeaders, SITE_HEADERS } from '../../src/server/site-config.ts';

// The built dist/_headers read by Netlify's own parser (@netlify/headers-parser, the package
// netlify-cli and Netlify's build use), after a build with this environment's settings: .ci/run
// runs it after `netlify serve` has built the site. netlify serve itself sends only the `/*`
// rules on pages (it matches rules against the file it resolved, /booking/index.html, not the
// requested path), so this is where each page's own rule is proved. src/server/site-config.test.ts
// checks the same file as written, with a small parser of its own.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
const headersFile = path.join(dist, '_headers');

/** Every page of the build: each folder of dist/ with an index.html, as its address. */
function builtPages(): string[] {
  const pages = existsSync(path.join(dist, 'index.html')) ? ['/'] : [];
  const walk = (folder: string, route: string) => {
    for (const entry of readdirSync(folder)) {
      const full = path.join(folder, entry);
      if (entry === '_astro' || !statSync(full).isDirectory()) continue;
      if (existsSync(path.join(full, 'index.html'))) pages.push(`${route}/${entry}`);
      walk(full, `${route}/${entry}`);
    }
  };
  walk(dist, '');
  return pages;
}

describe.runIf(existsSync(headersFile))("dist/_headers as Netlify's parser reads it", async () => {
  const { headers, errors } = await parseAllHeaders({ headersFiles: [headersFile], configHeaders: [], minimal: false });
  const rules = headers as Header[];
  const settings = parseEnv(process.env);
  /** Each header the rules matching `address` set, with every value they give it. */
  const valuesFor = (address: string) => {
    const values = new Map<string, string[]>();
    for (const rule of rules.filter((candidate) => candidate.forRegExp.test(address))) {
      for (const [name, value] of Object.entries(rule.values)) values.set(name, [...(values.get(name) ?? []), String(value)]);
    }
    return values;
  };
  const pages = builtPages();

  it('parses without errors', () => {
    expect(errors).toEqual([]);
    expect(pages.length).toBeGreaterThan(10);
  });

  // One value per header (/gallery/project is matched by its own rule and by /gallery/:id's, which
  // say the same).
  it.each(pages.flatMap((page) => (page === '/' ? [page] : [page, `${page}/`])))('%s gets its own policy and one value of each header', (address) => {
    const values = new Map([...valuesFor(address)].map(([name, given]) => [name, [...new Set(given)]]));
    const expected = pageHeaders(address, settings);
    expect(values.get('Content-Security-Policy')).toEqual([expected['Content-Security-Policy']]);
    expect(values.get('Permissions-Policy')).toEqual([expected['Permissions-Policy']]);
    expect(values.get('Referrer-Policy')).toEqual([expected['Referrer-Policy']]);
    expect(values.get('Cache-Control')).toEqual([pageCache(address)]);
    for (const [name, value] of Object.entries(SITE_HEADERS)) expect(values.get(name)).toEqual([value]);
  });

  it('gives a rewritten /gallery/{id} the project page’s policy', () => {
    expect(valuesFor('/gallery/42').get('Content-Security-Policy')).toEqual([pageHeaders('/gallery/project', settings)['Content-Security-Policy']]);
  });

  it('caches fingerprinted assets for a year and sets them no policy', () => {
    const values = valuesFor('/_astro/frame.abc123.js');
    expect(values.get('Cache-Control')).toEqual([IMMUTABLE_CACHE]);
    expect(values.has('Content-Security-Policy')).toBe(false);
  });

  it('matches the file a page is served from with the site-wide rule only (what netlify serve applies)', () => {
    const values = valuesFor('/booking/index.html');
    expect(values.has('Content-Security-Policy')).toBe(false);
    expect(values.get('X-Frame-Options')).toEqual(['DENY']);
  });
});

describe('dist/_headers', () => {
  it('exists (build first: npm run build, or netlify serve as .ci/run does)', () => {
    expect(existsSync(headersFile)).toBe(true);
  });
});
