/**
 * `npm run bench:documents`: invoices and the campaign report against the API function's limits
 * (api.md "Documents for business customers"; docs/PERFORMANCE.md "Documents"). A throwaway PGlite
 * database gets one paid booking with an issued invoice and one completed booking of 40 locations
 * with 80 after photos (phone-sized JPEGs, 4032 x 3024, with EXIF, and the server's thumbnails of
 * them, one in ten missing, in the disk file store); then:
 *
 *   - the first invoice PDF (pdfkit loaded cold) and the next 50 (warm), in milliseconds;
 *   - the campaign report, three times: seconds (the issue's bar: 3 s) and the process's peak
 *     resident memory (Netlify's functions have 1024 MB).
 *
 *   npm run bench:documents
 *   npm run bench:documents -- --locations=40 --photos=80
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import sharp from 'sharp';
import { openDatabase, type Database } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { bookingLocations, bookings, photos } from '../db/schema.ts';
import { silentLogger } from '../src/server/app/logger.ts';
import { parseEnv } from '../src/server/env.ts';
import { createDiskFileStore } from '../src/server/providers/files.ts';
import { makeThumbnail } from '../src/server/services/files/image-clean.ts';
import { campaignReport } from '../src/server/services/documents/campaign-report.ts';
import { issueBookingInvoice } from '../src/server/services/documents/invoices.ts';
import { invoicePdf } from '../src/server/services/documents/invoice-pdf.ts';
import { option } from './lib/scratch-db.ts';

const argv = process.argv.slice(2);
const locationCount = Number(option(argv, 'locations', '40'));
const photoCount = Number(option(argv, 'photos', '80'));
const REPORT_LIMIT_SECONDS = 3;
const FUNCTION_MEMORY_MB = 1024;

const env = parseEnv({ NODE_ENV: 'production', VAT_NUMBER: 'GB123456789', BUSINESS_LEGAL_NAME: 'Clean Patch Ltd', BUSINESS_ADDRESS: '1 Mill Lane, Manchester, M1 1AA' });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cp-bench-documents-'));
const handle = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
await migrateDatabase(handle);
const db = handle.db as Database;
const files = createDiskFileStore(path.join(dataDir, 'files'));
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);

const [booking] = await db
  .insert(bookings)
  .values({
    firstName: 'Priya',
    lastName: 'Shah',
    businessName: 'Northern Roast Coffee',
    email: 'priya@northernroast.example',
    phone: '0161 496 0311',
    quantity: locationCount,
    workType: 'night',
    locationAddress: 'many',
    preferredDate: '2026-11-20',
    totalPricePence: 59_900 + (locationCount - 10) * 4500 + locationCount * 2000,
    amountPaidPence: 59_900 + (locationCount - 10) * 4500 + locationCount * 2000,
    paymentStatus: 'paid',
    paidAt: new Date('2026-11-01T10:00:00Z'),
    status: 'completed',
    currentStep: 5,
    installationDate: new Date('2026-11-20T07:00:00Z'),
    completionDate: new Date('2026-11-20T18:00:00Z'),
  })
  .returning();
const invoice = await db.transaction((tx) => issueBookingInvoice(tx as unknown as Database, env, new Date(), booking!, 'pi_bench', booking!.paidAt!));

await db.insert(bookingLocations).values(
  Array.from({ length: locationCount }, (_, index) => ({
    bookingId: booking!.id,
    position: index,
    address: `${index + 1} Market Street, Manchester M1 1PT`,
    lat: 53.48 + index * 0.002,
    lng: -2.24 + index * 0.002,
  })),
);
// A phone's photo: 12 megapixels of noise-free gradient (JPEG) with EXIF, as a crew phone sends it.
const photoBytes = await sharp({ create: { width: 4032, height: 3024, channels: 3, background: '#7a8c99' } })
  .composite([{ input: Buffer.from(`<svg width="4032" height="3024"><rect x="600" y="500" width="2800" height="2000" fill="#2f6f4f"/></svg>`) }])
  .withExif({ IFD0: { Make: 'Phone', Model: 'Bench' } })
  .jpeg({ quality: 85 })
  .toBuffer();
// The server's thumbnail of it, as an upload stores beside every photo; one photo in ten without
// one (older uploads), which the report encodes itself.
const thumbnailBytes = (await makeThumbnail(new Uint8Array(photoBytes))).bytes;
for (let index = 0; index < photoCount; index += 1) {
  const fileName = `bench-after-${index}.jpg`;
  await files.put(fileName, new Uint8Array(photoBytes), 'image/jpeg');
  const thumbnailFileName = index % 10 === 9 ? null : `bench-after-${index}-thumb.jpg`;
  if (thumbnailFileName) await files.put(thumbnailFileName, thumbnailBytes, 'image/jpeg');
  const location = index % locationCount;
  await db.insert(photos).values({
    bookingId: booking!.id,
    fileName,
    thumbnailFileName,
    originalName: fileName,
    photoType: 'after',
    step: 4,
    fileSize: photoBytes.length,
    mimeType: 'image/jpeg',
    takenAt: new Date(Date.parse('2026-11-20T07:00:00Z') + index * 5 * 60_000),
    lat: 53.48 + location * 0.002,
    lng: -2.24 + location * 0.002,
    accuracyM: 6,
  });
}
const baseline = process.memoryUsage().rss;
peakRss = baseline;
console.log(`Documents: 1 invoice; a report of ${locationCount} locations and ${photoCount} photos (${(photoBytes.length / 1e6).toFixed(1)} MB each, 4032 x 3024)`);

let started = performance.now();
await invoicePdf(invoice);
const coldInvoiceMs = performance.now() - started;
started = performance.now();
for (let run = 0; run < 50; run += 1) await invoicePdf(invoice);
const warmInvoiceMs = (performance.now() - started) / 50;

const reportRuns: { seconds: number; bytes: number }[] = [];
for (let run = 0; run < 3; run += 1) {
  started = performance.now();
  const report = await campaignReport({ db, files, env, log: silentLogger }, booking!.id);
  reportRuns.push({ seconds: (performance.now() - started) / 1000, bytes: report!.bytes.length });
}
clearInterval(sampler);
await handle.close();
rmSync(dataDir, { recursive: true, force: true });

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
console.log(`\n| What | Time | Size |`);
console.log(`|---|---|---|`);
console.log(`| Invoice PDF, first (pdfkit loaded) | ${coldInvoiceMs.toFixed(0)} ms | |`);
console.log(`| Invoice PDF, warm (mean of 50) | ${warmInvoiceMs.toFixed(1)} ms | |`);
for (const [index, run] of reportRuns.entries()) {
  console.log(`| Report, run ${index + 1} | ${run.seconds.toFixed(2)} s${run.seconds > REPORT_LIMIT_SECONDS ? ' OVER' : ''} | ${(run.bytes / 1e6).toFixed(1)} MB |`);
}
console.log(`\nResident memory: ${mb(baseline)} MB before the documents, ${mb(peakRss)} MB at the peak (limit ${FUNCTION_MEMORY_MB} MB).`);
const over = reportRuns.filter((run) => run.seconds > REPORT_LIMIT_SECONDS).length;
if (over) console.log(`${over} report run(s) over ${REPORT_LIMIT_SECONDS} s.`);
process.exitCode = over || peakRss / 1024 / 1024 > FUNCTION_MEMORY_MB ? 1 : 0;
