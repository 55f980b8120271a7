import { eq } from 'drizzle-orm';
import * as z from 'zod';
import type { Database } from '../../../../db/client.ts';
import { bookings } from '../../../../db/schema.ts';
import { normaliseCustomerVatNumber } from '../../../domain/vat.ts';
import { notFound } from '../../app/errors.ts';

// PATCH /api/bookings/{id}/billing: what the customer's accounts team wants on their invoices.
// Stored on the booking; each invoice copies it when issued, so issued invoices never change.

export const BILLING_MESSAGES = {
  vatNumber: 'Enter a VAT number such as GB123456789',
  tooLong: 'Please keep this shorter',
} as const;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, BILLING_MESSAGES.tooLong)
    .nullish()
    // Left out: unchanged (undefined); empty or null: cleared.
    .transform((value) => (value === undefined ? undefined : value || null));

export const billingSchema = z
  .object({
    billingAddress: optionalText(500),
    poReference: optionalText(100),
    customerVatNumber: optionalText(30)
      .refine((value) => !value || normaliseCustomerVatNumber(value) !== null, BILLING_MESSAGES.vatNumber)
      .transform((value) => (value ? normaliseCustomerVatNumber(value) : value)),
  })
  .strict();

export type BillingDetails = { billingAddress: string | null; poReference: string | null; customerVatNumber: string | null };

/** The booking's columns that are its billing details, as read and as returned by a change. */
const BILLING_COLUMNS = {
  billingAddress: bookings.billingAddress,
  poReference: bookings.poReference,
  customerVatNumber: bookings.customerVatNumber,
};

export async function readBilling(db: Database, bookingId: number): Promise<BillingDetails> {
  const [row] = await db.select(BILLING_COLUMNS).from(bookings).where(eq(bookings.id, bookingId));
  if (!row) throw notFound();
  return row;
}

/** Fields left out of the body keep their value; an empty one clears it. */
export async function updateBilling(db: Database, bookingId: number, input: z.output<typeof billingSchema>, now: Date): Promise<BillingDetails> {
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<BillingDetails>;
  const [row] = await db
    .update(bookings)
    .set({ ...changes, updatedAt: now })
    .where(eq(bookings.id, bookingId))
    .returning(BILLING_COLUMNS);
  if (!row) throw notFound();
  return row;
}
