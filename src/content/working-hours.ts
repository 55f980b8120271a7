// Section 9, "Times": day work 9am-5pm, night work 6pm-6am. On its own, without business.ts's
// zod check (which covers it too), so the booking form can name the hours without loading zod.
export const WORKING_HOURS = { day: '9am - 5pm', night: '6pm - 6am' } as const;
