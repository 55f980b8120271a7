/**
 * The demo crew day of `npm run db:seed`: a worker, three stops scheduled for today and crew links
 * for today and tomorrow, put back as they were on every run.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from './client.ts';
import type { AppDeps } from '../src/server/app/deps.ts';
import type { FileStore } from '../src/server/providers/files.ts';
import { drawDemoPhoto } from './demo-photos.ts';
import { hashToken, newToken } from '../src/server/services/projects/tracking.ts';
import { crewLinkUrl, insertCrewLink, revokeOtherCrewLinks } from '../src/server/services/crew/crew-links.ts';
import { locateAddress } from '../src/domain/postcodes.ts';
import { londonDate } from '../src/domain/schedule.ts';
import { londonWallClock } from '../src/domain/crew.ts';
import { addDays } from '../src/domain/format.ts';
import { computeTotalPricePence } from '../src/domain/pricing.ts';
import { bookingLocations, bookings, crewStops, photos, proofs, trackingLinks, workers } from './schema.ts';
import type { DemoBooking } from './seed-data.ts';

/** Where the seed leaves the demo crew link, for people trying /crew and the browser tests. */
export const DEMO_CREW_LINK_FILE = 'demo-crew-link.txt';
/** A link for tomorrow's day, which shows when it opens until then. */
export const DEMO_CREW_TOMORROW_LINK_FILE = 'demo-crew-link-tomorrow.txt';
const DEMO_CREW_EMAIL = 'sam.carter@crew.cleanpatch.example';

type DemoCrewStop = Omit<DemoBooking, 'preferredDate' | 'step' | 'status' | 'paid'> & {
  unpaid?: true;
  specialInstructions?: string;
  /** The stencil proof the customer approved: its file name and the office's note. */
  stencil?: { name: string; note: string };
};

/** Today's demo stops: a day job and a night job in Manchester, a day job in Salford. */
const DEMO_CREW_STOPS: DemoCrewStop[] = [
  {
    firstName: 'Jamal', lastName: 'Reid', businessName: 'Ancoats Bakehouse', email: 'jamal@ancoatsbakehouse.example',
    phone: '0161 496 0620', quantity: 6, workType: 'day',
    specialInstructions: 'Access via the side alley off Blossom Street. The bakery opens at 7am; please keep the doorway clear.',
    stencil: { name: 'ancoats-bakehouse-logo.png', note: '600 x 400 mm, the round logo only' },
    locations: [{ address: 'Blossom Street, Manchester M4 6AJ', lat: 53.4845, lng: -2.2290 }],
  },
  {
    firstName: 'Ellie', lastName: 'Marsh', businessName: 'Deansgate Climbing', email: 'ellie@deansgateclimbing.example',
    phone: '0161 496 0733', quantity: 5, workType: 'day', unpaid: true,
    locations: [
      { address: 'Deansgate, Manchester M3 2BW', lat: 53.4794, lng: -2.2487 },
      { address: 'King Street, Manchester M2 4LQ', lat: 53.4810, lng: -2.2437 },
    ],
  },
  {
    firstName: 'Noah', lastName: 'Fletcher', businessName: 'Quays Night Market', email: 'noah@quaysnightmarket.example',
    phone: '0161 496 0848', quantity: 8, workType: 'night',
    specialInstructions: 'Park in the NCP on Broadway; the market manager meets you at the gate.',
    stencil: { name: 'quays-night-market.png', note: '900 x 600 mm' },
    locations: [{ address: 'The Quays, Salford M50 3AZ', lat: 53.4722, lng: -2.2970 }],
  },
];

/** The demo stop's approved stencil proof, once: the crew card names it. */
async function seedApprovedStencil(tx: Database, files: FileStore, bookingId: number, stencil: { name: string; note: string }, now: Date) {
  const [existing] = await tx.select({ id: proofs.id }).from(proofs).where(eq(proofs.bookingId, bookingId)).limit(1);
  if (existing) return;
  const bytes = drawDemoPhoto('after', bookingId);
  const fileName = `proof-${randomUUID()}.png`;
  await files.put(fileName, bytes, 'image/png');
  await tx.insert(proofs).values({
    bookingId,
    version: 1,
    status: 'approved',
    note: stencil.note,
    fileName,
    originalName: stencil.name,
    mimeType: 'image/png',
    fileSize: bytes.byteLength,
    createdBy: 'admin',
    createdAt: now,
    decidedAt: now,
    approvedAt: now,
  });
  // The booking's own date agrees with the proof's decision (the card reads the proof either way).
  await tx.update(bookings).set({ stencilApprovedDate: now }).where(eq(bookings.id, bookingId));
}

/**
 * A crew day to try /crew with: a worker (Sam Carter) and three stops scheduled for today's London
 * date (step 3 with today as installation date; staff scheduled Ellie's before she paid), with
 * a fresh crew link, and a link for tomorrow that says when it opens. Each run puts the demo stops back on today, undoes what a crew
 * did to them, and issues a new link (older ones are revoked), so the link printed is always
 * the one that works, until noon tomorrow.
 */
export async function seedCrewDay(deps: Pick<AppDeps, 'db' | 'env' | 'files'>, now: Date): Promise<{ today: string; tomorrow: string }> {
  const day = londonDate(now);
  const tomorrow = addDays(day, 1);
  return deps.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [worker] = await tx
      .insert(workers)
      .values({ email: DEMO_CREW_EMAIL, name: 'Sam Carter' })
      .onConflictDoUpdate({ target: workers.email, set: { active: true } })
      .returning({ id: workers.id });
    for (const demo of DEMO_CREW_STOPS) {
      const [existing] = await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.email, demo.email)).limit(1);
      const totalPricePence = computeTotalPricePence(demo.quantity, demo.workType);
      const values = {
        preferredDate: day,
        installationDate: londonWallClock(day, demo.workType === 'night' ? 18 : 9),
        ...(demo.unpaid
          ? { paymentStatus: 'unpaid' as const, amountPaidPence: null, paidAt: null }
          : { paymentStatus: 'paid' as const, amountPaidPence: totalPricePence, paidAt: now }),
        currentStep: 3,
        status: 'installation_scheduled',
        statusNotes: 'Updated to step 3: Installation Scheduling',
        specialInstructions: demo.specialInstructions ?? null,
        archived: false,
      };
      let bookingId = existing?.id;
      if (bookingId) {
        await tx.update(bookings).set(values).where(eq(bookings.id, bookingId));
        await tx.delete(crewStops).where(eq(crewStops.bookingId, bookingId));
        await tx.delete(photos).where(and(eq(photos.bookingId, bookingId), isNotNull(photos.workerId)));
      } else {
        const [created] = await tx
          .insert(bookings)
          .values({
            firstName: demo.firstName, lastName: demo.lastName, businessName: demo.businessName, email: demo.email,
            phone: demo.phone, quantity: demo.quantity, workType: demo.workType,
            locationAddress: demo.locations.map((location) => location.address).join('; '),
            ...locateAddress(demo.locations[0]!.address),
            totalPricePence,
            ...values,
          })
          .returning({ id: bookings.id });
        bookingId = created!.id;
        await tx.insert(bookingLocations).values(
          demo.locations.map((location, position) => ({ ...location, ...locateAddress(location.address), bookingId: bookingId!, position })),
        );
        await tx.insert(trackingLinks).values({ tokenHash: hashToken(newToken()), bookingId });
      }
      if (demo.stencil) await seedApprovedStencil(tx, deps.files, bookingId, demo.stencil, now);
    }
    const token = await insertCrewLink(tx, worker!.id, day, now);
    await revokeOtherCrewLinks(tx, worker!.id, day, token, now);
    const early = await insertCrewLink(tx, worker!.id, tomorrow, now);
    await revokeOtherCrewLinks(tx, worker!.id, tomorrow, early, now);
    return { today: crewLinkUrl(deps.env.SITE_URL, token), tomorrow: crewLinkUrl(deps.env.SITE_URL, early) };
  });
}
