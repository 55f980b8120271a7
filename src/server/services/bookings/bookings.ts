import { eq } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookingLocations, bookings } from '../../../../db/schema.ts';
import { BUSINESS } from '../../../content/business.ts';
import type { BookingPayload } from '../../../domain/booking-schema.ts';
import { formatLongDate } from '../../../domain/format.ts';
import { MIN_PATCHES, computeTotalPricePence } from '../../../domain/pricing.ts';
import { locateAddress } from '../../../domain/postcodes.ts';
import { detectTestBooking } from '../../../domain/test-booking.ts';
import type { AppDeps } from '../../app/deps.ts';
import { AppError, badRequest, conflict } from '../../app/errors.ts';
import { bookingConfirmationEmail, installationInviteAttachment, staffBookingNotification } from '../../email/templates/index.ts';
import { claimedEmails, type ClaimedEmailRow } from '../../providers/email-outbox.ts';
import { deliverAfterAnswer, type OutgoingMessage } from '../../providers/mailer.ts';
import { runCombinedReturning } from '../../../../db/combined-writes.ts';
import { claimUploadedFiles, storeUploadcareFiles } from './booking-files.ts';
import { UNPAID_HOLD_MINUTES, tooManyHolds, checkDateAvailability, londonToday, type DateAvailability } from './availability.ts';
import { BOOKING_HORIZON_MESSAGE, isBeyondBookingHorizon } from '../../../domain/booking-horizon.ts';
import { toCreatedBookingJson, type CreatedBookingJson } from './booking-view.ts';
import { channelLogInsert } from '../messages/channel-log.ts';
import { claimIdempotencyKey, IDEMPOTENCY_MESSAGES, idempotentResponseUpdate, requestFingerprint } from './idempotency.ts';
import { checkoutLinkUrl, checkoutTokenForKey, hashCheckoutToken, newCheckoutToken } from '../payments/checkout-token.ts';
import { trackingLinkInsert, trackingLinkUrl } from '../projects/tracking.ts';

export const BOOKING_SERVER_MESSAGES = {
  dateInPast: 'Preferred date cannot be in the past',
  dateUnavailable: 'Date Unavailable',
  notEnoughRoom: (freePatches: number, date: string) => {
    const free = `Only ${freePatches} ${freePatches === 1 ? 'patch is' : 'patches are'} still free on ${formatLongDate(date)}`;
    return freePatches < MIN_PATCHES
      ? `${free}, fewer than the ${MIN_PATCHES}-patch minimum. Please choose another date.`
      : `${free}. Choose ${freePatches} or fewer patches, or another date.`;
  },
  overDailyCapacity: (quantity: number, capacity: number) =>
    `${quantity} patches is more than we can lay in one day (${capacity} at most). ` +
    `Please contact us on ${BUSINESS.phone} or ${BUSINESS.email} to plan a larger campaign.`,
} as const;

const IDEMPOTENCY_SCOPE = 'create-booking';

export interface CreateBookingInput {
  /** Already parsed with bookingPayloadSchema (the form's own contract). */
  payload: BookingPayload;
  idempotencyKey?: string;
  /** clientKey() of the caller: an Idempotency-Key replays only to the client that made it. */
  client: string;
  /** The caller's key under yesterday's secret (idempotency.ts IdempotencyClaim). */
  previousClient?: (tx: Database) => Promise<string | undefined>;
  /**
   * The tracking grants the caller's browser holds (its photo cookie's tokens): the files of a
   * booking it may track can be attached again (Book again, booking-files.ts).
   */
  grantTokens?: string[];
}

/**
 * The creation answer: the booking plus its checkout token, which only the creator ever sees
 * (a replay of the same Idempotency-Key by the same client gets the same token, derived again
 * from the key; another client gets 409).
 */
export type CreatedBookingBody = CreatedBookingJson & { checkoutToken: string };

/** What an Idempotency-Key keeps of the answer: a reference, rebuilt on replay. */
interface StoredBookingAnswer {
  bookingId: number;
}

export interface CreateBookingResult {
  /** 201 for a new booking, 200 when an Idempotency-Key replays an earlier one. */
  status: 200 | 201;
  body: CreatedBookingBody;
  /**
   * A new booking's own e-mails, already in the outbox and claimed by this request (so no
   * delivery run takes them meanwhile): the caller sends them after answering
   * (api/background.ts), so neither the mail provider nor the delivery's writes delay the answer.
   */
  deliverMail?: () => Promise<void>;
}

/**
 * POST /api/bookings (api.md). Adds to the schema's checks what only the server knows
 * (today's date in the UK, the date's availability, the price, which uploads exist) and writes
 * everything a new booking means in ONE transaction: the booking, its locations, the claim on its
 * uploaded files (fresh uploads, or for Book again an earlier booking's), a channel log and its
 * e-mails in the outbox. Any failure leaves none of them. E-mail is sent after the commit (after
 * the answer, through `deliverMail`) and never fails the booking. The statements are few on
 * purpose, each a round trip made while the date's lock is held: the lock, the date's state, the
 * booking, the files' lock and check when there are files, and one combined write for the rest
 * (the files' rows among them). tests/api/booking-statements.test.ts keeps count.
 */
export async function createBooking(deps: AppDeps, { payload, idempotencyKey, client, previousClient, grantTokens = [] }: CreateBookingInput): Promise<CreateBookingResult> {
  const now = deps.now();
  const key = idempotencyKey ? { scope: IDEMPOTENCY_SCOPE, key: idempotencyKey } : undefined;
  // Before the transaction: a network call inside it would hold the date's lock and a pooled
  // connection (on PGlite, the whole database) for as long as Uploadcare takes.
  await storeUploadcareFiles(deps, payload.uploadedFiles);

  const result = await deps.db.transaction(async (tx) => {
    if (key) {
      const claim = await claimIdempotencyKey<StoredBookingAnswer>(tx, { ...key, fingerprint: requestFingerprint(payload), client, previousClient });
      if (!claim.claimed) {
        const [row] = await tx.select().from(bookings).where(eq(bookings.id, claim.response.body.bookingId));
        if (!row) throw conflict(IDEMPOTENCY_MESSAGES.reusedKey);
        const body = { ...toCreatedBookingJson(row), checkoutToken: checkoutTokenForKey(key.key) };
        return { status: 200 as const, body, created: false, claimed: [] as OutgoingMessage[] };
      }
    }

    // The July rule is the schema's; "not in the past" and "not years ahead" need the clock.
    if (payload.preferredDate < londonToday(now)) {
      throw badRequest(BOOKING_SERVER_MESSAGES.dateInPast, { preferredDate: BOOKING_SERVER_MESSAGES.dateInPast });
    }
    if (isBeyondBookingHorizon(payload.preferredDate, londonToday(now))) {
      throw badRequest(BOOKING_HORIZON_MESSAGE, { preferredDate: BOOKING_HORIZON_MESSAGE });
    }
    const locations = payload.locationCoordinates.map((location, position) => ({
      ...location,
      position,
      ...locateAddress(location.address),
    }));
    const first = locations[0] ?? locateAddress(payload.locationAddress.split(';')[0] ?? '');
    // The client's holds are counted under today's key only (client-info.ts): at midnight (UTC)
    // the count starts again, which lets a client at most 2 more holds once a day. The first
    // location's region: a rain day closed for that region closes the date for this booking.
    const availability = await checkDateAvailability(tx, {
      date: payload.preferredDate,
      quantity: payload.quantity,
      now,
      capacity: deps.env.DAILY_PATCH_CAPACITY,
      clients: [client],
      region: first.region,
    });
    if (!availability.available) throw unavailable(availability, payload, deps.env.DAILY_PATCH_CAPACITY);
    // api.md "Abuse and availability": at most 2 unpaid bookings per client at once.
    const holdLimit = deps.env.UNPAID_HOLDS_PER_CLIENT;
    if (availability.clientHolds >= holdLimit) {
      throw new AppError(429, tooManyHolds(holdLimit), undefined, { 'Retry-After': String(UNPAID_HOLD_MINUTES * 60) });
    }


    const checkoutToken = key ? checkoutTokenForKey(key.key) : newCheckoutToken();
    const [booking] = await tx
      .insert(bookings)
      .values({
        firstName: payload.firstName,
        lastName: payload.lastName,
        businessName: payload.businessName || null,
        email: payload.email,
        phone: payload.phone,
        quantity: payload.quantity,
        locationAddress: payload.locationAddress,
        postcode: first.postcode,
        region: first.region,
        specialInstructions: payload.specialInstructions || null,
        workType: payload.workType,
        preferredDate: payload.preferredDate,
        // The price table decides; the browser's totalPrice is ignored (api.md).
        totalPricePence: computeTotalPricePence(payload.quantity, payload.workType),
        status: 'pending',
        paymentStatus: 'unpaid',
        isTest: detectTestBooking(payload),
        checkoutTokenHash: hashCheckoutToken(checkoutToken),
        holdClient: client,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!booking) throw new Error('The booking insert returned no row');

    const fileClaim = await claimUploadedFiles(tx, booking.id, payload.uploadedFiles, { grantTokens, now });
    const fileNames = fileClaim.files.map((file) => file.originalName);

    // The confirmation e-mail's magic link to the tracking page (services/projects/tracking.ts).
    const trackingLink = trackingLinkInsert(tx, booking.id, now);
    const emailContext = {
      booking,
      addresses: locations.map((location) => location.address),
      fileNames,
      siteUrl: deps.env.SITE_URL,
      trackingUrl: trackingLinkUrl(deps.env.SITE_URL, trackingLink.token),
      checkoutUrl: checkoutLinkUrl(deps.env.SITE_URL, booking.id, checkoutToken),
    };
    // The calendar invite for the preferred date, SEQUENCE 0 (the column's default); a later
    // change of installation date sends it again with the next SEQUENCE (project-progress.ts).
    const invite = installationInviteAttachment(booking, booking.inviteSequence, deps.env.SITE_URL, now);
    const emails = [
      bookingConfirmationEmail(emailContext, invite),
      ...(deps.env.ADMIN_EMAIL ? [staffBookingNotification(emailContext, deps.env.ADMIN_EMAIL)] : []),
    ];
    const body: CreatedBookingBody = { ...toCreatedBookingJson(booking), checkoutToken };

    // Everything else the booking means, written in one statement (db/combined-writes.ts). The
    // e-mails are written already claimed by this request, which sends them once the transaction
    // has committed: no statement to claim them after the answer.
    const writes = [
      ...(locations.length > 0
        ? [
            tx.insert(bookingLocations).values(
              locations.map((location) => ({
                bookingId: booking.id,
                position: location.position,
                address: location.address,
                lat: location.lat,
                lng: location.lng,
                postcode: location.postcode,
                region: location.region,
              })),
            ),
          ]
        : []),
      ...(fileClaim.write ? [fileClaim.write] : []),
      channelLogInsert(tx, {
        channel: 'booking',
        action: 'booking_created',
        entityType: 'booking',
        entityId: booking.id,
        details: `Booking #${booking.id} created: ${booking.quantity} ${booking.workType} patches on ${booking.preferredDate}`,
        metadata: {
          quantity: booking.quantity,
          workType: booking.workType,
          preferredDate: booking.preferredDate,
          totalPricePence: booking.totalPricePence,
          locations: locations.length,
          files: fileNames.length,
          region: booking.region,
          isTest: booking.isTest,
          idempotent: Boolean(key),
        },
      }),
      trackingLink.insert,
      ...(key ? [idempotentResponseUpdate(tx, key, { status: 201, body: { bookingId: booking.id } satisfies StoredBookingAnswer })] : []),
    ];
    const outbox = claimedEmails(tx, emails, now);
    const claimed = outbox.sendable(await runCombinedReturning<ClaimedEmailRow>(tx, writes, outbox.write));
    return { status: 201 as const, body, created: true, claimed };
  });

  // This booking's own e-mails go after the answer (api/background.ts); anything else queued (a
  // retry, another request's mail) is the hourly maintenance job's, so a backlog never holds up
  // the customer. A failed send is marked for that job's retries; a delivery that never finished
  // is put back in its queue after STUCK_SENDING_MINUTES.
  return {
    status: result.status,
    body: result.body,
    ...(result.created ? { deliverMail: () => deliverAfterAnswer(deps, (mailer, db) => mailer.deliverClaimed(db, result.claimed, { claimedAt: now, now: deps.now() })) } : {}),
  };
}

/**
 * The 409 for a booking that does not fit its date. A blocked or full date is the spec's bare
 * 'Date Unavailable', which the form adds to its unavailable list. A date that still has room, or
 * a quantity no single day can take, is not a fact about the calendar: the answer names the field
 * to change and says by how much, so the form shows it beside that field instead.
 */
function unavailable(
  availability: Extract<DateAvailability, { available: false }>,
  payload: BookingPayload,
  capacity: number,
) {
  switch (availability.reason) {
    case 'not-enough-room': {
      const message = BOOKING_SERVER_MESSAGES.notEnoughRoom(availability.freePatches, payload.preferredDate);
      return conflict(message, { preferredDate: message });
    }
    case 'over-daily-capacity': {
      const message = BOOKING_SERVER_MESSAGES.overDailyCapacity(payload.quantity, capacity);
      return conflict(message, { quantity: message });
    }
    default:
      return conflict(BOOKING_SERVER_MESSAGES.dateUnavailable);
  }
}
