import type { bookings } from '../../../../db/schema.ts';
import { poundsFromPence } from '../../../domain/pricing.ts';

export type BookingRow = typeof bookings.$inferSelect;

/**
 * A booking as JSON, the one shape every route answers with (api.md, "General rules"): money in
 * pounds as numbers (stored as pence), calendar dates 'YYYY-MM-DD', instants ISO 8601 UTC.
 * The Stripe PaymentIntent id stays inside the server.
 */
export function toBookingJson<Extras extends Record<string, unknown> = Record<string, never>>(
  row: BookingRow,
  extras?: Extras,
) {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    businessName: row.businessName,
    email: row.email,
    phone: row.phone,
    quantity: row.quantity,
    // admin-dashboard.md lists both names for the same text: the addresses joined with '; '.
    address: row.locationAddress,
    locationAddress: row.locationAddress,
    postcode: row.postcode,
    region: row.region,
    specialInstructions: row.specialInstructions,
    workType: row.workType,
    preferredDate: row.preferredDate,
    totalPrice: poundsFromPence(row.totalPricePence),
    status: row.status,
    currentStep: row.currentStep,
    statusNotes: row.statusNotes,
    consultationDate: isoOrNull(row.consultationDate),
    stencilApprovedDate: isoOrNull(row.stencilApprovedDate),
    installationDate: isoOrNull(row.installationDate),
    completionDate: isoOrNull(row.completionDate),
    archived: row.archived,
    isTest: row.isTest,
    ...toPaymentJson(row),
    paymentFailureMessage: row.paymentFailureMessage,
    completionEmailSentAt: isoOrNull(row.completionEmailSentAt),
    reviewRequestSentAt: isoOrNull(row.reviewRequestSentAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(extras ?? ({} as Extras)),
  };
}

export type BookingJson = ReturnType<typeof toBookingJson>;

/**
 * A booking's payment state, the same wherever a booking is shown: the amount received in pounds
 * and when Stripe took it, both null until the webhook has marked it paid.
 */
export function toPaymentJson(row: BookingRow) {
  return {
    paymentStatus: row.paymentStatus,
    amountPaid: row.amountPaidPence === null ? null : poundsFromPence(row.amountPaidPence),
    paidAt: isoOrNull(row.paidAt),
  };
}

/** What POST /api/bookings answers: enough for the checkout, nothing the customer did not send. */
export function toCreatedBookingJson(row: BookingRow) {
  return {
    id: row.id,
    status: row.status,
    ...toPaymentJson(row),
    totalPrice: poundsFromPence(row.totalPricePence),
    quantity: row.quantity,
    workType: row.workType,
    preferredDate: row.preferredDate,
    locationAddress: row.locationAddress,
  };
}

export type CreatedBookingJson = ReturnType<typeof toCreatedBookingJson>;

function isoOrNull(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}
