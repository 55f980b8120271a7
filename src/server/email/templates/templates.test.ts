import { EMAIL_KINDS } from '../../../domain/email-kinds.ts';
import { describe, expect, it } from 'vitest';
import type { EmailMessage } from '../../providers/email-outbox.ts';
import { SAMPLE_BOOKING, SAMPLE_ENQUIRY, SAMPLE_NOW, SAMPLE_SITE_URL } from '../sample-data.ts';
import {
  bookingConfirmationEmail,
  completionEmail,
  crewOnTheWayEmail,
  enquiryAcknowledgement,
  installationInviteAttachment,
  installationReminderEmail,
  installationCancelledEmail,
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
  staffEnquiryNotification,
  workerRoutesEmail,
} from './index.ts';

// A plain-text preview of every message the site sends, from fixed sample data: a change to any
// e-mail's words or layout shows up as a snapshot diff to review.

const site = SAMPLE_SITE_URL;
const booking = SAMPLE_BOOKING;
const bookingContext = {
  booking,
  addresses: ['12 Oldham Street, Manchester M1 1JQ', '3 Thomas Street, Manchester M4 1EU'],
  fileNames: ['patel-bakery-logo.svg'],
  siteUrl: site,
  trackingUrl: `${site}/track-project?t=sample-token`,
  checkoutUrl: `${site}/checkout?booking=${booking.id}&t=sample-checkout-token`,
};
const invite = installationInviteAttachment(booking, 0, site, SAMPLE_NOW);
const proofContext = { booking, proof: { id: 9, version: 2, note: 'Version 2: the logo is 10% larger, as you asked.' } };
const moved = { ...booking, installationDate: new Date('2026-07-20T08:00:00Z'), inviteSequence: 1 };
const withdrawn = { ...booking, inviteStatus: 'cancelled' as const, inviteSequence: 1 };

const MESSAGES: Record<string, () => EmailMessage> = {
  'booking confirmation': () => bookingConfirmationEmail(bookingContext, invite),
  'booking confirmation without a tracking link': () =>
    bookingConfirmationEmail({ ...bookingContext, booking: { ...booking, specialInstructions: null }, fileNames: [], trackingUrl: undefined, checkoutUrl: undefined }),
  'staff booking notification': () => staffBookingNotification(bookingContext, 'bookings@cleanpatch.example'),
  'payment receipt': () => paymentReceiptEmail(booking, site, `${site}/track-project?t=receipt-token`),
  'stencil change receipt': () =>
    stencilChangeReceiptEmail(
      { booking, changeId: 3, amountPence: 10_000, invoiceNumber: 'CP-000123', attachments: [{ filename: 'invoice-CP-000123.pdf', type: 'application/pdf', content: '', invoice: 'CP-000123' }] },
      site,
    ),
  'enquiry notification': () => staffEnquiryNotification(SAMPLE_ENQUIRY, 'hello@cleanpatch.example'),
  'enquiry acknowledgement': () => enquiryAcknowledgement(SAMPLE_ENQUIRY),
  completion: () =>
    completionEmail(
      {
        bookingId: booking.id,
        firstName: booking.firstName,
        email: booking.email,
        quantity: booking.quantity,
        completionDate: '2026-07-16T15:00:00.000Z',
        photoUrls: [`${site}/uploads/after-1.jpg`, `${site}/uploads/after-2.jpg`],
        galleryUrl: `${site}/gallery/${booking.id}`,
      },
      '2026-07-17',
    ),
  'review invitation': () =>
    reviewInvitationEmail(
      { bookingId: booking.id, firstName: booking.firstName, email: booking.email, reviewUrl: `${site}/review?t=review-token`, expiresAt: new Date('2026-08-16T12:00:00Z') },
      '2026-07-17T09:00:00.000Z',
    ),
  'worker routes': () =>
    workerRoutesEmail({
      to: 'sam@cleanpatch.example',
      name: 'Sam Lee',
      date: '2026-07-16',
      dedupeKey: 'worker-routes:2026-07-16:sam@cleanpatch.example',
      crewUrl: `${site}/crew?t=sample-crew-token`,
      routes: [
        {
          routeNumber: 1,
          stops: 2,
          distanceKm: 1.4,
          mapsUrl: 'https://www.google.com/maps/dir/?api=1&origin=53.48,-2.23&destination=53.49,-2.24',
          bookings: [
            { bookingId: 42, customerName: 'Priya Patel', postcode: 'M1', addresses: ['12 Oldham Street, Manchester M1 1JQ'], workType: 'day' },
            { bookingId: 43, customerName: 'Tom Hughes', postcode: 'M4', addresses: ['3 Thomas Street, Manchester M4 1EU'], workType: 'night' },
          ],
        },
        { routeNumber: 2, stops: 1, distanceKm: null, mapsUrl: null, bookings: [{ bookingId: 44, customerName: 'Ana Silva', postcode: null, addresses: [], workType: 'day' }] },
      ],
    }),
  'crew on the way': () =>
    crewOnTheWayEmail({
      bookingId: booking.id,
      firstName: booking.firstName,
      email: booking.email,
      day: '2026-07-16',
      time: '10:42',
      trackingUrl: `${site}/track-project?t=sample-token`,
    }),
  'installation reminder': () => installationReminderEmail(booking, '2026-07-16'),
  'installation rescheduled': () => installationRescheduledEmail(moved, 1, installationInviteAttachment(moved, 1, site, SAMPLE_NOW)),
  'installation moved for the weather': () =>
    installationWeatherMovedEmail(moved, 1, installationInviteAttachment(moved, 1, site, SAMPLE_NOW), { previousDate: '2026-07-16', chooseUrl: `${site}/reschedule?t=sample-reschedule-token` }),
  'proof ready': () => proofReadyEmail(proofContext, `${site}/track-project?t=proof-token`),
  'proof ready with a PDF proof\'s first page': () =>
    proofReadyEmail(proofContext, `${site}/track-project?t=proof-token`, { bytes: new Uint8Array([137, 80, 78, 71]), mimeType: 'image/png', width: 1600, height: 1068 }),
  'proof ready without a note': () => proofReadyEmail({ ...proofContext, proof: { ...proofContext.proof, note: null } }, `${site}/track-project?t=proof-token`),
  'proof reminder': () => proofReminderEmail(proofContext, `${site}/track-project?t=reminder-token`),
  'proof approved (staff)': () => proofApprovedStaffEmail(proofContext, 'bookings@cleanpatch.example', new Date('2026-07-03T09:15:00Z')),
  'proof changes requested (staff)': () =>
    proofChangesStaffEmail(proofContext, 'bookings@cleanpatch.example', { id: null, comment: 'Please make the croissant bigger.\nAnd the text bolder.', settlement: null }),
  'paid stencil change (staff)': () =>
    proofChangesStaffEmail(proofContext, 'bookings@cleanpatch.example', { id: 3, comment: 'New phone number on the stencil.', settlement: { kind: 'paid', amountPence: 10_000 } }),
  'waived stencil change (staff)': () =>
    proofChangesStaffEmail(proofContext, 'bookings@cleanpatch.example', { id: 4, comment: 'Our typo in the name.', settlement: { kind: 'waived', by: 'admin:1a2b3c4d', reason: 'Our mistake' } }),
  'installation cancelled': () =>
    installationCancelledEmail(withdrawn, 1, installationInviteAttachment(withdrawn, 1, site, SAMPLE_NOW), 'cancelled', { siteUrl: site }),
  'still unpaid after an hour': () =>
    installationCancelledEmail(withdrawn, 1, installationInviteAttachment(withdrawn, 1, site, SAMPLE_NOW), 'hold_lapsed', { siteUrl: site }),
};

/** What a plain-text mail client shows: the subject, then the text part. */
const preview = (message: EmailMessage) => `Subject: ${message.subject}\n\n${message.text}`;

describe('e-mail templates', () => {
  it.each(Object.keys(MESSAGES))('%s: subject and plain text', (name) => {
    expect(preview(MESSAGES[name]!())).toMatchSnapshot();
  });

  // Every sentence is written twice, once per part: the HTML is kept too, so neither drifts alone.
  it.each(Object.keys(MESSAGES))('%s: HTML part', (name) => {
    expect(MESSAGES[name]!().html).toMatchSnapshot();
  });

  it.each(Object.keys(MESSAGES))("%s: is a kind staff can pick in the Messages filter", (name) => {
    expect(EMAIL_KINDS).toContain(MESSAGES[name]!().kind);
  });

  it.each(Object.keys(MESSAGES))('%s: has an HTML part in the shared frame', (name) => {
    const { html } = MESSAGES[name]!();
    expect(html).toMatch(/^<!doctype html><html lang="en-GB"><body [^>]*>\n[\s\S]*\n<\/body><\/html>$/);
  });

  it('escapes personal data in the HTML of every message that shows it', () => {
    const hostile = '<script>alert("x")</script>';
    const evilBooking = { ...booking, firstName: hostile, specialInstructions: hostile, locationAddress: `${hostile} Street` };
    const messages = [
      bookingConfirmationEmail({ ...bookingContext, booking: evilBooking, addresses: [], fileNames: [`${hostile}.svg`] }),
      staffBookingNotification({ ...bookingContext, booking: evilBooking }, 'staff@cleanpatch.example'),
      paymentReceiptEmail(evilBooking, site),
      staffEnquiryNotification({ ...SAMPLE_ENQUIRY, firstName: hostile, message: hostile }, 'staff@cleanpatch.example'),
      installationReminderEmail(evilBooking, '2026-07-16'),
      crewOnTheWayEmail({ bookingId: 1, firstName: hostile, email: booking.email, day: '2026-07-16', time: '10:42', trackingUrl: `${site}/track-project?t=x` }),
      installationRescheduledEmail({ ...evilBooking, installationDate: moved.installationDate }, 1, null),
      installationWeatherMovedEmail({ ...evilBooking, installationDate: moved.installationDate }, 1, null, { previousDate: '2026-07-16', chooseUrl: `${site}/reschedule?t=x` }),
      workerRoutesEmail({ to: 'sam@cleanpatch.example', name: hostile, date: '2026-07-16', dedupeKey: 'k', routes: [{ routeNumber: 1, stops: 1, distanceKm: 1, mapsUrl: null, bookings: [{ bookingId: 1, customerName: hostile, postcode: null, addresses: [hostile], workType: 'day' }] }] }),
      completionEmail({ bookingId: 1, firstName: hostile, email: booking.email, quantity: 5, completionDate: null, photoUrls: [], galleryUrl: `${site}/gallery/1` }, 'k'),
      reviewInvitationEmail({ bookingId: 1, firstName: hostile, email: booking.email, reviewUrl: `${site}/review?t=x`, expiresAt: SAMPLE_NOW }, 'k'),
      stencilChangeReceiptEmail({ booking: evilBooking, changeId: 1, amountPence: 10_000, invoiceNumber: 'CP-000001', attachments: [] }, site),
      proofReadyEmail({ booking: evilBooking, proof: { id: 1, version: 1, note: hostile } }, `${site}/track-project?t=x`),
      proofReminderEmail({ booking: evilBooking, proof: { id: 1, version: 1, note: null } }, `${site}/track-project?t=x`),
      proofApprovedStaffEmail({ booking: evilBooking, proof: { id: 1, version: 1, note: null } }, 'staff@cleanpatch.example', SAMPLE_NOW),
      proofChangesStaffEmail({ booking: evilBooking, proof: { id: 1, version: 1, note: null } }, 'staff@cleanpatch.example', { id: null, comment: hostile, settlement: null }),
    ];
    for (const message of messages) {
      expect(message.html).not.toContain('<script>');
      expect(message.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      // The text part is not HTML: it keeps the words as typed.
      expect(message.text).toContain(hostile);
    }
  });

  it('acknowledges an enquiry without a word the sender typed, so it cannot relay spam to a typed address', () => {
    const spam = { ...SAMPLE_ENQUIRY, firstName: 'Cheap pills at pills.example', message: 'Visit https://spam.example now for offers' };
    const { text, html, subject } = enquiryAcknowledgement(spam);
    for (const part of [text, html!, subject]) {
      expect(part).not.toContain('pills');
      expect(part).not.toContain('spam.example');
    }
  });

  it('links only the addresses the site wrote, never a URL a customer typed', () => {
    const planted = { ...booking, specialInstructions: 'See https://evil.example/login first', locationAddress: 'https://evil.example/map' };
    const staff = staffBookingNotification({ ...bookingContext, booking: planted }, 'staff@cleanpatch.example');
    expect(staff.html).toContain('See https://evil.example/login first');
    expect(staff.html).not.toContain('<a href="https://evil.example');
    const receipt = paymentReceiptEmail(planted, site, `${site}/track-project?t=sample-token`);
    expect(receipt.html).not.toContain('<a href="https://evil.example');
    expect(receipt.html).toContain(`<a href="${site}/track-project?t=sample-token">${site}/track-project?t=sample-token</a>`);
    expect(receipt.html).toContain(`<a href="${site}/track-project">${site}/track-project</a>`);
  });

  it("links the confirmation's 'complete payment' to the booking's checkout, by token", () => {
    const message = bookingConfirmationEmail(bookingContext, invite);
    const link = bookingContext.checkoutUrl;
    expect(message.text).toMatch(new RegExp(`complete payment soon: your date is reserved once paid\\.\\nPay online: ${link.replace(/[?.]/g, '\\$&')}`));
    expect(message.html).toContain(`<a href="${link.replace(/&/g, '&amp;')}">Complete payment</a>`);
  });

  it('attaches the calendar invite to the confirmation: booking UID, SEQUENCE 0, the preferred date in London', () => {
    const message = bookingConfirmationEmail(bookingContext, invite);
    expect(message.attachments).toEqual([{ filename: 'installation.ics', type: 'text/calendar; charset=utf-8; method=REQUEST', content: expect.any(String) }]);
    const ics = Buffer.from(message.attachments![0]!.content, 'base64').toString('utf8').replace(/\r\n /g, '');
    expect(ics).toContain('\r\nUID:booking-42@cleanpatch.example\r\n');
    expect(ics).toContain('\r\nSEQUENCE:0\r\n');
    expect(ics).toContain('\r\nDTSTART;TZID=Europe/London:20260716T090000\r\n');
    expect(ics).toContain('\r\nORGANIZER;CN="Clean Patch":mailto:hello@cleanpatch.example\r\n');
    expect(ics).toContain('\r\nATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:priya@patelbakery.co.uk\r\n');
  });

  it('sends no invite for an address a calendar line cannot hold, and says nothing of one', () => {
    const odd = { ...booking, email: 'a;b@patelbakery.co.uk' };
    expect(installationInviteAttachment(odd, 0, site, SAMPLE_NOW)).toBeNull();
    const message = installationRescheduledEmail(odd, 1, null);
    expect(message.attachments).toBeUndefined();
    expect(message.text).not.toContain('calendar invite');
  });
});
