import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { bookings, emailOutbox, proofs, stencilChanges } from '../../db/schema.ts';
import { BOOKING_EMAIL_KINDS } from '../../src/domain/email-kinds.ts';
import { queueEmail, type BookingEmailMessage, type EmailMessage } from '../../src/server/providers/email-outbox.ts';
import { SAMPLE_BOOKING, SAMPLE_NOW, SAMPLE_SITE_URL } from '../../src/server/email/sample-data.ts';
import {
  bookingConfirmationEmail,
  completionEmail,
  crewOnTheWayEmail,
  installationCancelledEmail,
  installationInviteAttachment,
  installationReminderEmail,
  installationRescheduledEmail,
  installationWeatherMovedEmail,
  paymentReceiptEmail,
  proofApprovedStaffEmail,
  proofChangesStaffEmail,
  proofReadyEmail,
  proofReminderEmail,
  reviewInvitationEmail,
  staffBookingNotification,
  stencilChangeReceiptEmail,
} from '../../src/server/email/templates/index.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext } from '../setup/test-app.ts';
import { insertRoutableBooking } from '../fixtures/routable-bookings.ts';

// api.md "Staff messages": a booking's history lists every e-mail it caused. The link is
// structural: a booking's e-mail kind cannot be written to the outbox without its booking id.

const ctx = await createTestContext();
const db = ctx.deps.db;
const site = SAMPLE_SITE_URL;

/** Every template a booking's life can send, written for the booking `id`. */
function everyBookingEmail(id: number): BookingEmailMessage[] {
  const booking = { ...SAMPLE_BOOKING, id };
  const context = { booking, addresses: ['12 Oldham Street, Manchester M1 1JQ'], fileNames: [], siteUrl: site, trackingUrl: `${site}/track-project?t=x` };
  const proof = { booking, proof: { id: 9, version: 1, note: null } };
  const moved = { ...booking, installationDate: new Date('2026-07-20T08:00:00Z'), inviteSequence: 1 };
  const withdrawn = { ...booking, inviteStatus: 'cancelled' as const, inviteSequence: 2 };
  return [
    bookingConfirmationEmail(context),
    staffBookingNotification(context, 'bookings@cleanpatch.example'),
    paymentReceiptEmail(booking, site, `${site}/track-project?t=r`),
    installationRescheduledEmail(moved, 1, installationInviteAttachment(moved, 1, site, SAMPLE_NOW)),
    installationCancelledEmail(withdrawn, 2, null, 'cancelled', { siteUrl: site }),
    installationWeatherMovedEmail(moved, 1, installationInviteAttachment(moved, 1, site, SAMPLE_NOW), { previousDate: '2026-07-16', chooseUrl: `${site}/reschedule?t=w` }),
    installationReminderEmail(booking, '2026-07-16'),
    crewOnTheWayEmail({ bookingId: id, firstName: booking.firstName, email: booking.email, day: '2026-07-16', time: '10:42', trackingUrl: `${site}/t` }),
    proofReadyEmail(proof, `${site}/track-project?t=p`),
    proofReminderEmail(proof, `${site}/track-project?t=p`),
    proofApprovedStaffEmail(proof, 'bookings@cleanpatch.example', SAMPLE_NOW),
    proofChangesStaffEmail(proof, 'bookings@cleanpatch.example', { id: null, comment: 'Bigger, please.', settlement: null }),
    stencilChangeReceiptEmail({ booking, changeId: 1, amountPence: 10_000, invoiceNumber: 'CP-000001', attachments: [] }, site),
    completionEmail({ bookingId: id, firstName: booking.firstName, email: booking.email, quantity: 5, completionDate: null, photoUrls: [], galleryUrl: `${site}/gallery/${id}` }, 'k'),
    reviewInvitationEmail({ bookingId: id, firstName: booking.firstName, email: booking.email, reviewUrl: `${site}/review?t=r`, expiresAt: SAMPLE_NOW }, 'k'),
  ];
}

describe("a booking's message history", () => {
  it('names every kind a template writes as a booking kind, or as one about no booking', async () => {
    const folder = new URL('../../src/server/email/templates/', import.meta.url);
    const kinds = new Set<string>();
    for (const file of await readdir(folder)) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      for (const match of (await readFile(new URL(file, folder), 'utf8')).matchAll(/^\s+kind: '([a-z-]+)',$/gm)) kinds.add(match[1]!);
    }
    const aboutNoBooking = ['enquiry-acknowledgement', 'enquiry-staff-notification', 'worker-routes', 'staff-invitation', 'staff-password-reset'];
    expect([...kinds].sort()).toEqual([...BOOKING_EMAIL_KINDS, ...aboutNoBooking].sort());
  });

  it('lists every e-mail kind a booking can cause', async () => {
    const id = await insertRoutableBooking(db);
    const messages = everyBookingEmail(id);
    expect(new Set(messages.map((message) => message.kind))).toEqual(new Set(BOOKING_EMAIL_KINDS));
    for (const message of messages) expect(await queueEmail(db, message)).toBe(true);
    const response = await ctx.app.request(`/api/admin/bookings/${id}/messages`, adminRequest(await adminCookie(ctx)));
    expect(response.status).toBe(200);
    const listed = ((await response.json()) as { kind: string }[]).map((message) => message.kind);
    expect(new Set(listed)).toEqual(new Set(BOOKING_EMAIL_KINDS));
  });

  it("refuses to write a booking's e-mail without its booking id", async () => {
    const [orphan] = everyBookingEmail(999_999).filter((message) => message.kind === 'crew-on-the-way');
    const { bookingId: _dropped, ...withoutBooking } = orphan!;
    await expect(queueEmail(db, withoutBooking as EmailMessage)).rejects.toThrow('A crew-on-the-way e-mail needs the id of the booking it is about');
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, orphan!.dedupeKey!))).toHaveLength(0);
  });

  it('gives e-mails written before the link their booking back (migration 0025)', async () => {
    await db.delete(emailOutbox);
    const id = await insertRoutableBooking(db);
    const [proof] = await db
      .insert(proofs)
      .values({ bookingId: id, version: 1, fileName: 'proof-x.pdf', originalName: 'proof.pdf', mimeType: 'application/pdf', fileSize: 10, createdBy: 'admin:1' })
      .returning({ id: proofs.id });
    const [change] = await db
      .insert(stencilChanges)
      .values({ bookingId: id, proofId: proof!.id, comment: 'Bigger', amountPence: 10_000, status: 'paid' })
      .returning({ id: stencilChanges.id });
    const old = (kind: string, dedupeKey: string) => ({ kind, dedupeKey, to: 'a@b.example', subject: 's', text: 't', bookingId: null });
    const [crew] = await db
      .insert(emailOutbox)
      .values([
        old('crew-on-the-way', `crew-on-the-way:${id}:2026-07-16`),
        old('installation-cancelled', `installation-cancelled:${id}:2`),
        old('proof-ready', `proof-ready:${proof!.id}`),
        old('proof-reminder', `proof-reminder:${proof!.id}`),
        old('proof-approved-staff', `proof-approved-staff:${proof!.id}`),
        old('proof-changes-staff', `proof-changes-staff:${proof!.id}`),
        old('proof-changes-staff', `stencil-change-staff:${change!.id}`),
        old('enquiry-acknowledgement', 'enquiry-acknowledgement:7'),
      ])
      .returning({ id: emailOutbox.id });
    await db.insert(emailOutbox).values({ ...old('crew-on-the-way', `resend:${crew!.id}:x`), resendOf: crew!.id });

    const migration = await readFile(new URL('../../db/migrations/0025_booking-email-links.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));

    const rows = await db.select({ kind: emailOutbox.kind, bookingId: emailOutbox.bookingId }).from(emailOutbox);
    expect(rows.filter((row) => row.kind !== 'enquiry-acknowledgement').every((row) => row.bookingId === id)).toBe(true);
    expect(rows.filter((row) => row.bookingId === id)).toHaveLength(8);
    expect(rows.find((row) => row.kind === 'enquiry-acknowledgement')!.bookingId).toBeNull();
    await db.delete(bookings).where(eq(bookings.id, id));
  });
});
