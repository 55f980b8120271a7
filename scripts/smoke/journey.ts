/**
 * The smoke checks' whole journey (scripts/netlify-smoke.ts without --read-only): uploads of 3, 8
 * and 10 MB, a booking with them, tracking, the admin's sign-in and list, a PDF proof and its
 * preview (scripts/smoke/proof.ts), a signed Stripe webhook, and each scheduled function once. Needs the server's ADMIN_PASSWORD and STRIPE_WEBHOOK_SECRET.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import Stripe from 'stripe';
import { parseEnv } from '../../src/server/env.ts';
import { londonDate } from '../../src/domain/schedule.ts';
import { addDays } from '../../src/domain/format.ts';
import { UPLOAD_PART_BYTES } from '../../src/domain/upload-parts.ts';
import { Skip, call as callSite, check, describe, expect } from './checks.ts';
import { checkPdfProof } from './proof.ts';

interface Uploaded {
  filename: string;
  originalName: string;
  fileSize: number;
  mimeType: string;
}

/**
 * A real PNG of random pixels just under `size` bytes: the server decodes and re-encodes every
 * image it stores, so a signature followed by noise is refused. Stored without compression, so
 * its size is known in advance.
 */
function pngDimensions(size: number) {
  const width = 1024;
  // Uncompressed PNG adds about 0.2 % (deflate block and IDAT chunk headers): 1 % keeps it under.
  return { width, height: Math.floor((size * 0.99) / (width * 3 + 1)) };
}

async function pngOf(size: number): Promise<Uint8Array<ArrayBuffer>> {
  const { width, height } = pngDimensions(size);
  const png = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return new Uint8Array(png);
}

async function uploadWhole(base: string, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<Uploaded> {
  const call = (pathname: string, init?: RequestInit) => callSite(base, pathname, init);
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/png' }), name);
  const answer = await call('/api/upload', { method: 'POST', body: form });
  expect(answer.response.status === 201, describe(answer));
  return answer.json;
}

/** As the booking form does for files above one part (src/islands/booking/upload.ts). */
async function uploadInParts(base: string, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<Uploaded> {
  const call = (pathname: string, init?: RequestInit) => callSite(base, pathname, init);
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
  // The server stores a re-encoded copy (metadata stripped), so the size moves a little; random
  // pixels do not compress, so a copy far smaller than what was sent means parts went missing.
  const stored = done.json.fileSize as number;
  expect(done.json.mimeType === 'image/png', `stored as ${done.json.mimeType}`);
  expect(Math.abs(stored - bytes.byteLength) < bytes.byteLength * 0.01, `stored ${stored} bytes, sent ${bytes.byteLength}`);
  return done.json;
}

/** Two months ahead, moved to 14 July when that falls in January to June (bookings run July to December). */
function bookableDate(): string {
  const date = addDays(londonDate(new Date()), 60);
  return Number(date.slice(5, 7)) >= 7 ? date : `${date.slice(0, 4)}-07-14`;
}

export async function checkJourney(base: string) {
  const call = (pathname: string, init?: RequestInit) => callSite(base, pathname, init);
  console.log('\nA booking from start to payment, and the admin');
  const { ADMIN_PASSWORD: adminPassword, STRIPE_WEBHOOK_SECRET: webhookSecret } = parseEnv(process.env);
  const files: Uploaded[] = [];
  const MB = 1024 * 1024;

  // Three files chosen at once, uploaded side by side as the booking form does (UploadField.tsx);
  // each large one in parts, one after another (upload.ts).
  await Promise.all([
    check('POST /api/upload, 3 MB in one request', async () => {
      files.push(await uploadWhole(base, 'smoke-3mb.png', await pngOf(3 * MB)));
    }),
    check(`POST /api/upload/parts, 8 MB in ${Math.ceil((8 * MB) / UPLOAD_PART_BYTES)} parts`, async () => {
      files.push(await uploadInParts(base, 'smoke-8mb.png', await pngOf(8 * MB)));
    }),
    check(`POST /api/upload/parts, 10 MB (the limit) in ${Math.ceil((10 * MB) / UPLOAD_PART_BYTES)} parts`, async () => {
      files.push(await uploadInParts(base, 'smoke-10mb.png', await pngOf(10 * MB)));
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
    const { width, height } = await sharp(Buffer.from(body)).metadata();
    const sent = pngDimensions(10 * MB);
    expect(width === sent.width && height === sent.height, `${width}x${height}, sent ${sent.width}x${sent.height}`);
  });

  await checkPdfProof(base, cookie, booking?.id);

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
