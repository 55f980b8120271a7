/**
 * `npm run db:seed`: believable demo data for an empty database (bookings at every step,
 * published reviews, enquiries, a little traffic). Idempotent: a marker row in job_runs
 * makes a second run do nothing.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from './client.ts';
import type { FileStore } from '../src/server/providers/files.ts';
import { hashToken, newToken, trackingLinkUrl } from '../src/server/services/projects/tracking.ts';
import { drawDemoPhoto, type DemoPhotoKind } from './demo-photos.ts';
import { DEMO_CREW_LINK_FILE, DEMO_CREW_TOMORROW_LINK_FILE, seedCrewDay } from './seed-crew-day.ts';
import type { AppDeps } from '../src/server/app/deps.ts';
import { issueBookingInvoice, type InvoiceSettings } from '../src/server/services/documents/invoices.ts';
import { createReviewInvitation, type ReviewInvitation } from '../src/server/services/reviews/review-invitations.ts';
import { locateAddress } from '../src/domain/postcodes.ts';
import {
  analyticsEvents,
  bookingFiles,
  bookingLocations,
  bookings,
  channelLogs,
  contactEnquiries,
  jobRuns,
  pageViews,
  photos,
  progressLogs,
  reviews,
  trackingLinks,
  uploadedFiles,
} from './schema.ts';
import { computeTotalPricePence } from '../src/domain/pricing.ts';
import { PROJECT_STEPS } from '../src/domain/project-steps.ts';
import { DEMO_BOOKINGS, DEMO_ENQUIRIES, DEMO_REVIEWS, type DemoBooking } from './seed-data.ts';

export type { DemoBooking };

/**
 * The magic link of demo booking 1 (Priya Shah, completed, with photos) is this fixed token, so
 * the browser tests and anyone trying the demo can open /track-project?t=... without reading an
 * e-mail. Demo data only: the other demo bookings get random tokens, printed when seeding, and
 * real bookings only ever get random ones.
 */
export const DEMO_TRACKING_TOKEN = 'DemoLinkNorthernRoastCoffee-2026';

export interface SeedOptions {
  /** Where the demo photos go (the runtime's file store); without it no photos are seeded. */
  files?: FileStore;
  /** For the printed magic links. */
  siteUrl?: string;
  /** Receives one line per demo booking with its magic link. */
  print?: (line: string) => void;
  /** The seller the paid demo bookings' invoices name (env.ts); default: not VAT registered. */
  invoiceSettings?: InvoiceSettings;
}

/** Photos of a booking at step 4 or 5: before and during the work, and after once completed. */
type DemoPhoto = { kind: DemoPhotoKind; step: number; description: string; originalName: string };

function demoPhotoPlan(demo: DemoBooking): DemoPhoto[] {
  if (demo.step < 4) return [];
  const street = (address: string) => address.split(',')[0]!;
  const plan = demo.locations.flatMap((location, index): DemoPhoto[] => [
    { kind: 'before', step: 4, description: `Before: ${street(location.address)}, as we found it`, originalName: `before-${index + 1}.png` },
    { kind: 'during', step: 4, description: `During: the stencil down on ${street(location.address)}`, originalName: `during-${index + 1}.png` },
  ]);
  if (demo.step >= 5) {
    plan.push(
      ...demo.locations.map((location, index): DemoPhoto => ({
        kind: 'after',
        step: 5,
        description: `After: ${demo.businessName} cleaned into ${street(location.address)}`,
        originalName: `after-${index + 1}.png`,
      })),
    );
  }
  return plan;
}

export async function seedDatabase(db: Database, options: SeedOptions = {}): Promise<boolean> {
  return db.transaction(async (tx) => {
    const marker = await tx
      .insert(jobRuns)
      .values({ job: 'seed', runKey: 'demo-v1' })
      .onConflictDoNothing()
      .returning();
    if (marker.length === 0) return false;

    for (const demo of DEMO_BOOKINGS) {
      const totalPricePence = computeTotalPricePence(demo.quantity, demo.workType);
      const stamped = Object.fromEntries(
        PROJECT_STEPS.filter((step) => step.step <= demo.step && step.dateField).map((step) => [
          step.dateField!,
          new Date(`${demo.preferredDate}T09:00:00Z`),
        ]),
      );
      const [booking] = await tx
        .insert(bookings)
        .values({
          firstName: demo.firstName,
          lastName: demo.lastName,
          businessName: demo.businessName,
          email: demo.email,
          phone: demo.phone,
          quantity: demo.quantity,
          workType: demo.workType,
          preferredDate: demo.preferredDate,
          locationAddress: demo.locations.map((location) => location.address).join('; '),
          // Read from the address, as POST /api/bookings does.
          ...locateAddress(demo.locations[0]!.address),
          totalPricePence,
          status: demo.status,
          currentStep: demo.step,
          statusNotes: `Updated to step ${demo.step}: ${PROJECT_STEPS[demo.step - 1]!.name}`,
          isTest: demo.firstName === 'Test',
          paymentStatus: demo.paid ? 'paid' : 'unpaid',
          amountPaidPence: demo.paid ? totalPricePence : null,
          paidAt: demo.paid ? new Date(`${demo.preferredDate}T08:00:00Z`) : null,
          ...stamped,
          // The hourly job archives completed projects 30 days after completion; a recent date
          // keeps the demo's finished projects on show for a month after seeding.
          ...(demo.status === 'completed' ? { completionDate: new Date(Date.now() - 2 * 86_400_000) } : {}),
        })
        .returning();
      // A paid demo booking has its invoice, as the payment would have issued it.
      if (booking!.paidAt) {
        await issueBookingInvoice(tx as unknown as Database, options.invoiceSettings ?? { BUSINESS_LEGAL_NAME: undefined, BUSINESS_ADDRESS: undefined, VAT_NUMBER: undefined, VAT_RATE: 20 }, booking!.paidAt, booking!, `pi_demo_${booking!.id}`, booking!.paidAt);
      }
      await tx.insert(bookingLocations).values(
        demo.locations.map((location, position) => ({ ...location, ...locateAddress(location.address), bookingId: booking!.id, position })),
      );
      const bookingIndex = DEMO_BOOKINGS.indexOf(demo);
      const token = bookingIndex === 0 ? DEMO_TRACKING_TOKEN : newToken();
      await tx.insert(trackingLinks).values({ tokenHash: hashToken(token), bookingId: booking!.id });
      options.print?.(
        `  Booking #${booking!.id} (${demo.firstName} ${demo.lastName}, step ${demo.step}): ${trackingLinkUrl(options.siteUrl ?? 'http://localhost:8888', token)}`,
      );

      if (options.files) {
        // The brand files the booking was made with (Book again attaches them to a new booking).
        for (const [index, originalName] of (demo.brandFiles ?? []).entries()) {
          const bytes = drawDemoPhoto('after', booking!.id * 100 + 90 + index);
          const fileName = `${randomUUID()}.png`;
          await options.files.put(fileName, bytes, 'image/png');
          const [file] = await tx
            .insert(uploadedFiles)
            .values({ fileName, originalName, fileSize: bytes.byteLength, mimeType: 'image/png', storage: options.files.kind })
            .returning({ id: uploadedFiles.id });
          await tx.insert(bookingFiles).values({ bookingId: booking!.id, fileId: file!.id });
        }
        for (const [index, photo] of demoPhotoPlan(demo).entries()) {
          const bytes = drawDemoPhoto(photo.kind, booking!.id * 100 + index);
          const fileName = `${randomUUID()}.png`;
          await options.files.put(fileName, bytes, 'image/png');
          await tx.insert(photos).values({
            bookingId: booking!.id,
            fileName,
            originalName: photo.originalName,
            description: photo.description,
            photoType: photo.kind,
            step: photo.step,
            fileSize: bytes.byteLength,
            mimeType: 'image/png',
            // In the order they were taken: the installation morning, then the photo round.
            createdAt: new Date(new Date(`${demo.preferredDate}T09:00:00Z`).getTime() + index * 20 * 60_000),
          });
        }
      }

      // What the booking service would have logged, so the admin's Logs tab has a history to filter.
      await tx.insert(channelLogs).values([
        { channel: 'booking', action: 'booking_created', entityType: 'booking', entityId: String(booking!.id), details: `Booking #${booking!.id} created: ${demo.quantity} ${demo.workType} patches on ${demo.preferredDate}` },
        { channel: 'email', action: 'email_sent', entityType: 'booking', entityId: String(booking!.id), details: `Booking confirmation e-mailed for booking #${booking!.id}` },
      ]);
      const steps = PROJECT_STEPS.filter((step) => step.step <= demo.step);
      if (steps.length > 1) {
        await tx.insert(progressLogs).values(
          steps.map((step) => ({
            bookingId: booking!.id,
            step: step.step,
            stepName: step.name,
            status: step.status,
            notes: `Updated to step ${step.step}: ${step.name}`,
          })),
        );
      }
    }

    await tx.insert(reviews).values(DEMO_REVIEWS.map((review) => ({ ...review, submittedAt: new Date(review.submittedAt) })));
    await tx.insert(contactEnquiries).values(DEMO_ENQUIRIES);
    await tx.insert(pageViews).values(
      ['/', '/', '/pricing', '/booking', '/gallery', '/how-it-works', '/'].map((viewPath, index) => ({
        path: viewPath,
        country: 'United Kingdom',
        city: ['Manchester', 'Leeds', 'Liverpool'][index % 3],
      })),
    );
    await tx.insert(analyticsEvents).values([{ eventName: 'booking_started', path: '/booking' }]);
    await tx.insert(channelLogs).values({ channel: 'database', action: 'seeded', details: 'Demo data added by npm run db:seed' });
    return true;
  });
}

/** Where the seed leaves the demo review link, for people running the site locally and the browser tests. */
export const DEMO_REVIEW_LINK_FILE = 'demo-review-link.txt';

/**
 * One open review invitation for the latest completed demo booking that has no review yet, so
 * /review can be tried locally. Only the token's hash is stored, so an old link cannot be shown
 * again: each run replaces the unused invitation with a fresh one (still exactly one open) and
 * returns its link. Null when every completed demo booking has been reviewed.
 */
export async function seedReviewInvitation(deps: Pick<AppDeps, 'db' | 'env' | 'now'>): Promise<ReviewInvitation | null> {
  const [booking] = await deps.db
    .select({ id: bookings.id })
    .from(bookings)
    .leftJoin(reviews, eq(reviews.bookingId, bookings.id))
    .where(and(eq(bookings.status, 'completed'), isNull(reviews.id)))
    .orderBy(desc(bookings.id))
    .limit(1);
  return booking ? createReviewInvitation(deps, booking.id) : null;
}

export { DEMO_CREW_LINK_FILE, DEMO_CREW_TOMORROW_LINK_FILE, seedCrewDay };

// `npm run db:seed`
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { getEnv } = await import('../src/server/env.ts');
  const { createRuntime } = await import('../src/server/runtime.ts');
  const { localPlatform } = await import('../src/server/platform/local.ts');
  const runtime = await createRuntime(getEnv(), localPlatform);
  const links: string[] = [];
  const seeded = await seedDatabase(runtime.deps.db, {
    files: runtime.deps.files,
    invoiceSettings: runtime.deps.env,
    siteUrl: runtime.deps.env.SITE_URL,
    print: (line) => links.push(line),
  });
  const invitation = await seedReviewInvitation(runtime.deps);
  const crewLink = await seedCrewDay(runtime.deps, new Date());
  await runtime.close();
  console.log(seeded ? 'Demo data added.' : 'Demo data was already there; nothing changed.');
  if (links.length) console.log(['Tracking links of the demo bookings:', ...links].join('\n'));
  if (invitation) {
    await writeFile(path.resolve(runtime.deps.env.DATA_DIR, DEMO_REVIEW_LINK_FILE), `${invitation.url}\n`, { mode: 0o600 });
    console.log(`Review link for a completed demo project (single-use; replaces the previous one): ${invitation.url}`);
  }
  await writeFile(path.resolve(runtime.deps.env.DATA_DIR, DEMO_CREW_LINK_FILE), `${crewLink.today}\n`, { mode: 0o600 });
  await writeFile(path.resolve(runtime.deps.env.DATA_DIR, DEMO_CREW_TOMORROW_LINK_FILE), `${crewLink.tomorrow}\n`, { mode: 0o600 });
  console.log(`Crew link for today's demo stops (Sam Carter; works until noon tomorrow): ${crewLink.today}`);
  console.log(`Crew link for tomorrow (opens at midnight): ${crewLink.tomorrow}`);
}
