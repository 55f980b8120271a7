/**
 * Smoke checks of the site as Netlify serves it: CI runs them against `netlify serve --offline`
 * (.ci/run, "Netlify's runtime"), and after a deploy they run read-only against the live site.
 *
 *   tsx scripts/netlify-smoke.ts --url=http://localhost:8888 --headers-file=dist/_headers
 *       everything: pages and their headers, a booking with uploads of 3, 8 and 10 MB, tracking,
 *       admin sign-in and list, a PDF proof with its first-page preview (drawn by the
 *       proof-preview function), a signed Stripe webhook, each scheduled function once.
 *       Needs the server's ADMIN_PASSWORD and STRIPE_WEBHOOK_SECRET in this environment.
 *   tsx scripts/netlify-smoke.ts --url=https://<your site> --read-only
 *       pages and their headers, the 404, and API calls that change nothing.
 *
 * Headers: Netlify's CDN matches dist/_headers rules against the requested path, so each page
 * gets its own Content-Security-Policy. `netlify serve` matches them against the file it
 * resolved (/booking/index.html after the `/*` catch-all redirect), so only the `/*` rules
 * arrive there. With --headers-file, a page whose policy did not arrive is checked in the file
 * instead, with Netlify's own parser (@netlify/headers-parser, the one the CLI uses); without
 * it (a deployed site), a missing policy fails.
 *
 * Plain fetches, one line per check, exit code 1 when any check fails.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';
import { pageHeaders, SITE_HEADERS } from '../src/server/site-config.ts';
import { API_CONTENT_SECURITY_POLICY } from '../src/server/csp.ts';
import { parseEnv } from '../src/server/env.ts';
import { call as callSite, check, describe, expect, failureCount } from './smoke/checks.ts';
import { checkJourney } from './smoke/journey.ts';

const argv = process.argv.slice(2);
const option = (name: string) => argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
const base = (option('url') ?? '').replace(/\/$/, '');
const readOnly = argv.includes('--read-only');
const headersFile = option('headers-file');
const distDir = option('dist') ?? (headersFile ? path.dirname(headersFile) : undefined);
if (!base) {
  console.error('Usage: tsx scripts/netlify-smoke.ts --url=<site> [--read-only] [--headers-file=dist/_headers]');
  process.exit(2);
}
const started = performance.now();
const call = (pathname: string, init?: RequestInit) => callSite(base, pathname, init);

/** Every page the build makes (the rewrite /gallery/:id shows /gallery/project). */
const PAGES = [
  '/',
  '/about',
  '/admin',
  '/admin/accept',
  '/booking',
  '/checkout',
  '/contact',
  '/crew',
  '/gallery',
  '/gallery/project',
  '/gallery/42',
  '/how-it-works',
  '/payment-success',
  '/pricing',
  '/privacy',
  '/reschedule',
  '/review',
  '/terms',
  '/track-project',
];

// ------------------------------------------------------------------ pages and headers

/** The rules of dist/_headers as Netlify's parser reads them, and which apply to a path. */
async function headerRules() {
  if (!headersFile) return undefined;
  const { headers, errors } = await parseAllHeaders({ headersFiles: [headersFile], configHeaders: [], minimal: false });
  if (errors.length) throw new Error(`${headersFile}: ${errors.map((error) => error.message).join('; ')}`);
  return (pathname: string) => {
    const values = new Map<string, Set<string>>();
    // minimal: false gives every rule its matcher.
    for (const rule of headers as Header[]) {
      if (!rule.forRegExp.test(pathname)) continue;
      for (const [name, value] of Object.entries(rule.values as Record<string, string>)) {
        values.set(name.toLowerCase(), (values.get(name.toLowerCase()) ?? new Set()).add(String(value)));
      }
    }
    return values;
  };
}

/** Pages in dist/ (folders with an index.html) that PAGES does not name: a new page needs a line here. */
function unlistedPages(dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string, route: string) => {
    for (const entry of readdirSync(folder)) {
      const full = path.join(folder, entry);
      if (entry === '_astro' || !statSync(full).isDirectory()) continue;
      if (existsSync(path.join(full, 'index.html'))) found.push(`${route}/${entry}`);
      walk(full, `${route}/${entry}`);
    }
  };
  walk(dir, '');
  return found.filter((route) => !PAGES.includes(route));
}

async function checkPages() {
  console.log('\nPages and their headers');
  const settings = parseEnv(process.env);
  const rulesFor = await headerRules();
  if (distDir && existsSync(distDir)) {
    await check(`every built page in ${distDir} is checked here`, async () => {
      const missing = unlistedPages(distDir);
      expect(missing.length === 0, `add ${missing.join(', ')} to PAGES in scripts/netlify-smoke.ts`);
    });
  }
  let cspFromFile = 0;
  for (const page of PAGES) {
    await check(`GET ${page}`, async () => {
      const response = await fetch(`${base}${page}`, { signal: AbortSignal.timeout(30_000) });
      await response.arrayBuffer();
      expect(response.status === 200, `status ${response.status}`);
      expect(response.headers.get('content-type')?.startsWith('text/html'), `content-type ${response.headers.get('content-type')}`);
      for (const [name, value] of Object.entries(SITE_HEADERS)) {
        // The local server (npm start) leaves HSTS out over plain http; Netlify always sends it.
        if (name === 'Strict-Transport-Security' && !response.headers.has(name) && base.startsWith('http://') && !headersFile) continue;
        expect(response.headers.get(name) === value, `${name}: ${response.headers.get(name) ?? 'missing'}`);
      }
      const csp = response.headers.get('content-security-policy');
      const expected = readOnly ? undefined : pageHeaders(page, settings)['Content-Security-Policy'];
      if (csp) {
        // Two policies arrive joined by a comma (both would be enforced); one policy has none.
        expect(!csp.includes(','), `more than one Content-Security-Policy: ${csp}`);
        if (expected) expect(csp === expected, `Content-Security-Policy is not this page's:\n        ${csp}`);
        expect(csp.includes("frame-ancestors 'none'"), `Content-Security-Policy without frame-ancestors: ${csp}`);
        // Whatever the site's settings, Stripe is allowed exactly where src/server/csp.ts allows it.
        const stripe = pageHeaders(page, settings)['Content-Security-Policy']!.includes('stripe.com');
        expect(csp.includes('stripe.com') === stripe, stripe ? 'Stripe is not allowed here' : 'Stripe is allowed here');
        return `own Content-Security-Policy arrived${response.redirected ? ` (via ${response.url})` : ''}`;
      }
      if (!rulesFor) throw new Error('no Content-Security-Policy header');
      // netlify serve: the page's rule, as Netlify's parser matches it to the requested path.
      const fromFile = rulesFor(page).get('content-security-policy');
      expect(fromFile?.size === 1, `${headersFile} gives ${page} ${fromFile?.size ?? 0} policies`);
      if (expected) expect([...fromFile][0] === expected, `${headersFile} gives ${page} another policy: ${[...fromFile][0]}`);
      cspFromFile += 1;
      return `policy not sent by this server; ${headersFile} gives it (Netlify's parser)`;
    });
  }
  if (cspFromFile) {
    console.log(`  note  ${cspFromFile} page(s) checked in ${headersFile}: netlify serve applies header rules to the file path it resolved, not the requested path`);
  }
  await check('GET /no-such-page is the 404 page', async () => {
    const response = await fetch(`${base}/no-such-page-${Date.now()}`, { signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    expect(response.status === 404, `status ${response.status}`);
    expect(/<html/i.test(text), 'not an HTML page');
  });
  await check('GET /book redirects to /booking', async () => {
    const response = await fetch(`${base}/book`, { redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    expect(response.status === 301, `status ${response.status}`);
    expect(new URL(response.headers.get('location') ?? '', base).pathname === '/booking', `location ${response.headers.get('location')}`);
  });
}

// ------------------------------------------------------------------ API, read-only

async function checkApiReadOnly() {
  console.log('\nAPI (changes nothing)');
  await check('GET /api/bookings/unavailable-dates', async () => {
    const answer = await call('/api/bookings/unavailable-dates');
    expect(answer.response.status === 200, describe(answer));
    expect(answer.response.headers.get('content-security-policy') === API_CONTENT_SECURITY_POLICY, 'the API\'s own Content-Security-Policy is missing');
    expect(answer.response.headers.get('x-content-type-options') === 'nosniff', 'X-Content-Type-Options missing');
  });
  await check('GET /api/admin/session without a session is 401', async () => {
    const answer = await call('/api/admin/session');
    expect(answer.response.status === 401, describe(answer));
  });
  await check('POST /api/stripe/webhook unsigned is refused', async () => {
    const answer = await call('/api/stripe/webhook', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    if (readOnly && answer.response.status === 503) return 'payments are not configured on this site';
    expect(answer.response.status === 400, describe(answer));
  });
}

console.log(`Smoke checks of ${base}${readOnly ? ' (read-only)' : ''}`);
await checkPages();
await checkApiReadOnly();
if (!readOnly) await checkJourney(base);
const failures = failureCount();
console.log(`\n${failures ? `${failures} check(s) FAILED` : 'All checks passed'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = failures ? 1 : 0;
