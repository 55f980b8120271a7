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
import type { AppDeps } from '../src/server/api/deps.ts';
import { createReviewInvitation, type ReviewInvitation } from '../src/server/services/reviews/review-invitations.ts';
import { locateAddress } from '../src/domain/postcodes.ts';
import {
  analyticsEvents,
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
} from './schema.ts';
import { computeTotalPricePence } from '../src/domain/pricing.ts';
import { PROJECT_STEPS } from '../src/domain/project-steps.ts';

export interface DemoBooking {
  firstName: string;
  lastName: string;
  businessName: string;
  email: string;
  phone: string;
  quantity: number;
  workType: 'day' | 'night';
  preferredDate: string;
  step: number;
  status: string;
  paid: boolean;
  locations: { address: string; lat: number; lng: number }[];
}

const DEMO_BOOKINGS: DemoBooking[] = [
  {
    firstName: 'Priya', lastName: 'Shah', businessName: 'Northern Roast Coffee', email: 'priya@northernroast.example',
    phone: '0161 496 0311', quantity: 10, workType: 'day', preferredDate: '2026-07-14', step: 5, status: 'completed', paid: true,
    locations: [
      { address: 'Market Street, Manchester M1 1PT', lat: 53.4823, lng: -2.2389 },
      { address: 'Oldham Street, Manchester M4 1LE', lat: 53.4842, lng: -2.2336 },
    ],
  },
  {
    firstName: 'Tom', lastName: 'Birchall', businessName: 'Kirkgate Cycles', email: 'tom@kirkgatecycles.example',
    phone: '0113 496 0472', quantity: 5, workType: 'day', preferredDate: '2026-08-03', step: 5, status: 'completed', paid: true,
    locations: [{ address: 'Briggate, Leeds LS1 6HD', lat: 53.7986, lng: -1.5418 }],
  },
  {
    firstName: 'Aisha', lastName: 'Okafor', businessName: 'Baltic Yoga Studio', email: 'aisha@balticyoga.example',
    phone: '0151 496 0185', quantity: 12, workType: 'night', preferredDate: '2026-09-18', step: 4, status: 'confirmed', paid: true,
    locations: [
      { address: 'Jamaica Street, Liverpool L1 0AF', lat: 53.3968, lng: -2.9809 },
      { address: 'Bold Street, Liverpool L1 4DS', lat: 53.4024, lng: -2.9793 },
    ],
  },
  {
    firstName: 'Gareth', lastName: 'Lowe', businessName: 'Quayside Gin Co.', email: 'gareth@quaysidegin.example',
    phone: '0191 496 0824', quantity: 10, workType: 'night', preferredDate: '2027-07-09', step: 2, status: 'confirmed', paid: true,
    locations: [{ address: 'Quayside, Newcastle upon Tyne NE1 3DX', lat: 54.9686, lng: -1.6053 }],
  },
  {
    firstName: 'Hannah', lastName: 'Whitworth', businessName: 'Kelham Island Books', email: 'hannah@kelhambooks.example',
    phone: '0114 496 0937', quantity: 5, workType: 'day', preferredDate: '2027-07-21', step: 1, status: 'pending', paid: false,
    locations: [{ address: 'Alma Street, Sheffield S3 8SA', lat: 53.3893, lng: -1.4681 }],
  },
  {
    firstName: 'Test', lastName: 'Booking', businessName: 'Demo Ltd', email: 'test@example.com',
    phone: '0000 000000', quantity: 5, workType: 'day', preferredDate: '2027-08-02', step: 1, status: 'pending', paid: false,
    locations: [{ address: 'Test Street, Bradford BD1 1AA', lat: 53.7938, lng: -1.7524 }],
  },
];

const DEMO_REVIEWS = [
  { customerName: 'Priya S.', rating: 5, serviceQuality: 5, timeliness: 5, communication: 5, submittedAt: '2026-07-24T10:12:00Z', reviewText: 'Our coffee cup logo on Market Street stopped people in their tracks. Footfall was up the week it went down, and the photos were ready the same evening.' },
  { customerName: 'Tom B.', rating: 5, serviceQuality: 5, timeliness: 4, communication: 5, submittedAt: '2026-08-12T16:40:00Z', reviewText: 'Five patches outside the shop and on Briggate. Crisp edges, zero mess, and the council had no complaints because it is just water.' },
  { customerName: 'Laura M.', rating: 4, serviceQuality: 4, timeliness: 5, communication: 4, submittedAt: '2026-08-29T09:05:00Z', reviewText: 'Great for our festival wayfinding. The stencils looked sharp on the dirtier slabs; a couple on cleaner paving were fainter, which the team warned us about.' },
  { customerName: 'Daniel K.', rating: 5, serviceQuality: 5, timeliness: 5, communication: 5, submittedAt: '2026-09-10T13:22:00Z', reviewText: 'Booked on a Monday, stencil approved on Wednesday, installed the next week. Tracking page kept our whole team in the loop.' },
  { customerName: 'Aisha O.', rating: 5, serviceQuality: 5, timeliness: 5, communication: 4, submittedAt: '2026-09-28T19:48:00Z', reviewText: 'The night install meant no disruption to the morning rush, and by 8am our studio logo was the talk of Jamaica Street.' },
  { customerName: 'Rob H.', rating: 4, serviceQuality: 4, timeliness: 4, communication: 5, submittedAt: '2026-10-06T11:31:00Z', reviewText: 'Clever, cheap compared with posters and properly eco. We will book again for the Christmas launch.' },
  { customerName: 'Sophie T.', rating: 5, serviceQuality: 5, timeliness: 5, communication: 5, submittedAt: '2026-10-19T15:02:00Z', reviewText: 'Our students loved spotting the logos around campus. Clear pricing, quick replies and great photos for our socials.' },
  { customerName: 'Imran A.', rating: 5, serviceQuality: 5, timeliness: 4, communication: 5, submittedAt: '2026-11-02T08:57:00Z', reviewText: 'Ten patches across two streets for our restaurant opening. Looked like art, not advertising, which is exactly what we wanted.' },
];

const DEMO_ENQUIRIES = [
  { firstName: 'Megan', lastName: 'Clarke', email: 'megan@lanternevents.example', phone: '0161 496 0555', inquiryType: 'Bulk/Enterprise', message: 'We run three food festivals next summer and would like around 60 patches across Manchester and Leeds. Could you quote?' },
  { firstName: 'Oliver', lastName: 'Grant', email: 'oliver.grant@example.org', phone: null, inquiryType: 'July Special Booking', message: 'Is the July special still available for a 10-patch booking in Preston?' },
  { firstName: 'Chloe', lastName: 'Ng', email: 'chloe@brightside.example', phone: '0113 496 0222', inquiryType: 'Partnership', message: 'We are a creative agency in Leeds and would love to offer reverse graffiti to our clients.' },
];

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
        .returning({ id: bookings.id });
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
  const runtime = await createRuntime(getEnv());
  const links: string[] = [];
  const seeded = await seedDatabase(runtime.deps.db, {
    files: runtime.deps.files,
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
