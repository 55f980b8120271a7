/**
 * Smoke checks of the site as Netlify serves it: CI runs them against `netlify serve --offline`
 * (.ci/run, "Netlify's runtime"), and after a deploy they run read-only against the live site.
 *
 *   tsx scripts/netlify-smoke.ts --url=http://localhost:8888 --headers-file=dist/_headers
 *       everything: pages and their headers, a booking with uploads of 3, 8 and 10 MB, tracking,
 *       admin sign-in and list, a signed Stripe webhook, each scheduled function once.
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
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Stripe from 'stripe';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';
import { parseEnv } from '../src/server/env.ts';
import { pageHeaders, SITE_HEADERS } from '../src/server/site-config.ts';
import { API_CONTENT_SECURITY_POLICY } from '../src/server/csp.ts';
import { londonDate } from '../src/domain/schedule.ts';
import { addDays } from '../src/domain/format.ts';
import { UPLOAD_PART_BYTES } from '../src/domain/upload-parts.ts';

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

/** Every page the build makes (the rewrite /gallery/:id shows /gallery/project). */
const PAGES = [
  '/',
  '/about',
  '/admin',
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
  '/review',
  '/terms',
  '/track-project',
];

// ------------------------------------------------------------------ reporting

let failures = 0;
const started = performance.now();

class Skip extends Error {}

async function check(name: string, work: () => Promise<string | void>): Promise<boolean> {
  const begin = performance.now();
  try {
    const note = await work();
    console.log(`  ok    ${name} (${Math.round(performance.now() - begin)} ms)${note ? `: ${note}` : ''}`);
    return true;
  } catch (error) {
    if (error instanceof Skip) {
      console.log(`  skip  ${name}: ${error.message}`);
      return false;
    }
    failures += 1;
    console.log(`  FAIL  ${name} (${Math.round(performance.now() - begin)} ms): ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function call(pathname: string, init: RequestInit = {}): Promise<{ response: Response; text: string; json: any }> {
  const response = await fetch(`${base}${pathname}`, { redirect: 'manual', ...init, signal: AbortSignal.timeout(60_000) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { response, text, json };
}

const describe = ({ response, text }: { response: Response; text: string }) => `${response.status} ${text.slice(0, 200)}`;

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

// ------------------------------------------------------------------ API, the whole journey

interface Uploaded {
  filename: string;
  originalName: string;
  fileSize: number;
  mimeType: string;
}

/** A PNG by its signature (all the server reads of a binary file's type), then random bytes. */
function pngOf(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(randomBytes(size));
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0);
  return bytes;
}

async function uploadWhole(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<Uploaded> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/png' }), name);
  const answer = await call('/api/upload', { method: 'POST', body: form });
  expect(answer.response.status === 201, describe(answer));
  return answer.json;
}

/** As the booking form does for files above one part (src/islands/booking/upload.ts). */
async function uploadInParts(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<Uploaded> {
  const start = await call('/api/upload/parts', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name, size: bytes.byteLength }) });
  expect(start.response.status === 201, `start: ${describe(start)}`);
  const { uploadId, partSize, partCount } = start.json as { uploadId: string; partSize: number; partCount: number };
  for (let index = 0; index < partCount; index += 1) {
    const part = bytes.subarray(index * partSize, (index + 1) * partSize);
    const sent = await call(`/api/upload/parts/${uploadId}/${index}`, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: part });
    expect(sent.response.status === 200, `part ${index} (${part.byteLength} bytes): ${describe(sent)}`);
  }
  const done = await call(`/api/upload/parts/${uploadId}/complete`, { method: 'POST' });
  expect(done.response.status === 201, `complete: ${describe(done)}`);
  expect(done.json.fileSize === bytes.byteLength, `assembled ${done.json.fileSize} bytes, sent ${bytes.byteLength}`);
  return done.json;
}

/** Two months ahead, moved to 14 July when that falls in January to June (bookings run July to December). */
function bookableDate(): string {
  const date = addDays(londonDate(new Date()), 60);
  return Number(date.slice(5, 7)) >= 7 ? date : `${date.slice(0, 4)}-07-14`;
}

async function checkJourney() {
  console.log('\nA booking from start to payment, and the admin');
  const { ADMIN_PASSWORD: adminPassword, STRIPE_WEBHOOK_SECRET: webhookSecret } = parseEnv(process.env);
  const files: Uploaded[] = [];
  const MB = 1024 * 1024;

  // Three files chosen at once, uploaded side by side as the booking form does (UploadField.tsx);
  // each large one in parts, one after another (upload.ts).
  await Promise.all([
    check('POST /api/upload, 3 MB in one request', async () => {
      files.push(await uploadWhole('smoke-3mb.png', pngOf(3 * MB)));
    }),
    check(`POST /api/upload/parts, 8 MB in ${Math.ceil((8 * MB) / UPLOAD_PART_BYTES)} parts`, async () => {
      files.push(await uploadInParts('smoke-8mb.png', pngOf(8 * MB)));
    }),
    check(`POST /api/upload/parts, 10 MB (the limit) in ${Math.ceil((10 * MB) / UPLOAD_PART_BYTES)} parts`, async () => {
      files.push(await uploadInParts('smoke-10mb.png', pngOf(10 * MB)));
    }),
  ]);

  const email = `smoke-${Date.now()}@northernroasters.co.uk`;
  let booking: { id: number; totalPrice: number } | undefined;
  await check(`POST /api/bookings with the ${files.length} uploaded files`, async () => {
    const answer = await call('/api/bookings', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({
        firstName: 'Amira',
        lastName: 'Khan',
        businessName: 'Northern Roasters',
        email,
        phone: '0161 496 0000',
        preferredDate: bookableDate(),
        quantity: 10,
        locationAddress: 'Piccadilly Gardens, Manchester, Greater Manchester, England, M1 1RG, United Kingdom',
        workType: 'night',
        locationCoordinates: [{ address: 'Piccadilly Gardens, Manchester, Greater Manchester, England, M1 1RG, United Kingdom', lat: 53.4808, lng: -2.2369 }],
        uploadedFiles: files,
      }),
    });
    expect(answer.response.status === 201, describe(answer));
    booking = answer.json;
    return `booking #${booking!.id}, £${booking!.totalPrice}`;
  });

  await check('POST /api/track-project (e-mail and booking id)', async () => {
    if (!booking) throw new Skip('no booking');
    const answer = await call('/api/track-project', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, bookingId: booking.id }) });
    expect(answer.response.status === 200 && answer.json.id === booking.id, describe(answer));
    return `step ${answer.json.currentStep}, ${answer.json.status}`;
  });

  let cookie: string | undefined;
  await check('POST /api/admin/login', async () => {
    if (!adminPassword) throw new Error('ADMIN_PASSWORD is not set for the smoke run');
    const answer = await call('/api/admin/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ password: adminPassword }) });
    expect(answer.response.status === 204, describe(answer));
    cookie = answer.response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    expect(cookie, 'no session cookie');
  });

  let createdAt: string | undefined;
  await check('GET /api/bookings (the admin list) shows the booking and its files', async () => {
    if (!cookie || !booking) throw new Skip('not signed in, or no booking');
    const answer = await call('/api/bookings?archived=false', { headers: { Cookie: cookie } });
    expect(answer.response.status === 200, describe(answer));
    const row = (answer.json as { id: number; createdAt: string; uploadedFiles?: unknown[] }[]).find((item) => item.id === booking!.id);
    expect(row, `booking #${booking.id} not in the list`);
    expect(row.uploadedFiles?.length === files.length, `${row.uploadedFiles?.length ?? 0} files on the booking, ${files.length} uploaded`);
    createdAt = row.createdAt;
    return `${answer.response.headers.get('x-total-count')} booking(s)`;
  });

  await check('GET /api/files/<10 MB file> streams the whole file to the admin', async () => {
    const big = files.find((file) => file.originalName.includes('10mb'));
    if (!cookie || !big) throw new Skip('not signed in, or no 10 MB file');
    const response = await fetch(`${base}/api/files/${big.filename}`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(60_000) });
    const body = await response.arrayBuffer();
    expect(response.status === 200, `status ${response.status}`);
    expect(body.byteLength === big.fileSize, `${body.byteLength} bytes, expected ${big.fileSize}`);
  });

  await check('POST /api/stripe/webhook, a signed payment_intent.succeeded', async () => {
    if (!webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is not set for the smoke run');
    if (!booking || !createdAt) throw new Skip('no booking, or its creation time is unknown');
    const amount = Math.round(booking.totalPrice * 100);
    const created = Math.floor(Date.now() / 1000);
    const payload = JSON.stringify({
      id: `evt_smoke_${Date.now()}`,
      object: 'event',
      api_version: '2026-10-28',
      created,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: `pi_smoke_${Date.now()}`,
          object: 'payment_intent',
          amount,
          amount_received: amount,
          currency: 'gbp',
          status: 'succeeded',
          livemode: false,
          created,
          metadata: { bookingId: String(booking.id), bookingRef: `${booking.id}:${Date.parse(createdAt)}` },
          last_payment_error: null,
        },
      },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    const answer = await call('/api/stripe/webhook', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: payload });
    expect(answer.response.status === 200, describe(answer));
    expect(answer.json.received === true && !answer.json.ignored && !answer.json.duplicate, `not applied: ${answer.text}`);
  });

  await check('the payment confirmed the booking (tracking again)', async () => {
    if (!booking) throw new Skip('no booking');
    const answer = await call('/api/track-project', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, bookingId: booking.id }) });
    expect(answer.response.status === 200 && answer.json.status === 'confirmed', describe(answer));
  });

  console.log('\nScheduled functions, invoked once each');
  await check('POST /.netlify/functions/maintenance', async () => {
    const answer = await call('/.netlify/functions/maintenance', { method: 'POST' });
    expect(answer.response.status === 200, describe(answer));
    expect(Array.isArray(answer.json?.failedSteps) && answer.json.failedSteps.length === 0, `failed steps: ${answer.text}`);
    const done = Object.entries(answer.json.counts as Record<string, number>).filter(([, count]) => count > 0);
    return done.map(([name, count]) => `${name} ${count}`).join(', ') || 'nothing to do';
  });
  await check('POST /.netlify/functions/worker-notifications', async () => {
    const answer = await call('/.netlify/functions/worker-notifications', { method: 'POST' });
    expect(answer.response.status === 200, describe(answer));
    expect(['not-the-hour', 'sent', 'already-sent', 'no-workers', 'no-routes'].includes(answer.json?.outcome), `outcome: ${answer.text}`);
    return `outcome ${answer.json.outcome}`;
  });
}

console.log(`Smoke checks of ${base}${readOnly ? ' (read-only)' : ''}`);
await checkPages();
await checkApiReadOnly();
if (!readOnly) await checkJourney();
console.log(`\n${failures ? `${failures} check(s) FAILED` : 'All checks passed'} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = failures ? 1 : 0;
