/**
 * How long an unpaid booking holds its date, and how many one client may hold (api.md "Abuse and
 * availability"). The server enforces them (services/bookings/availability.ts); the booking form
 * and the terms say them to customers from here.
 */
export const UNPAID_HOLD_MINUTES = 60;
export const MAX_UNPAID_HOLDS_PER_CLIENT = 2;

/** What the booking form and the terms tell customers about holds. */
export const HOLD_NOTICE = `We hold your date for ${UNPAID_HOLD_MINUTES} minutes while you pay.`;
export const HOLD_TERMS =
  `After you book, we hold your date for ${UNPAID_HOLD_MINUTES} minutes so you can pay; once paid, it is yours. ` +
  `You can have at most ${MAX_UNPAID_HOLDS_PER_CLIENT} unpaid bookings at a time. A date is held once: if you book the same date again ` +
  `from the same connection within a day after its hold ran out, the new booking does not hold it, so pay straight away to secure it.`;
