/**
 * `npm run db:seed`: believable demo data for an empty database (bookings at every step,
 * published reviews, enquiries, a little traffic). Idempotent: a marker row in job_runs
 * makes a second run do nothing.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client.ts';
import { locateAddress } from '../src/domain/postcodes.ts';
import {
  analyticsEvents,
  bookingLocations,
  bookings,
  channelLogs,
  contactEnquiries,
  jobRuns,
  pageViews,
  progressLogs,
  reviews,
} from './schema.ts';
import { computeTotalPricePence } from '../src/domain/pricing.ts';
import { PROJECT_STEPS } from '../src/domain/project-steps.ts';

interface DemoBooking {
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

export async function seedDatabase(db: Database): Promise<boolean> {
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
        })
        .returning({ id: bookings.id });
      await tx.insert(bookingLocations).values(
        demo.locations.map((location, position) => ({ ...location, ...locateAddress(location.address), bookingId: booking!.id, position })),
      );
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

// `npm run db:seed`
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { getEnv } = await import('../src/server/env.ts');
  const { createRuntime } = await import('../src/server/runtime.ts');
  const runtime = await createRuntime(getEnv());
  const seeded = await seedDatabase(runtime.deps.db);
  await runtime.close();
  console.log(seeded ? 'Demo data added.' : 'Demo data was already there; nothing changed.');
}
