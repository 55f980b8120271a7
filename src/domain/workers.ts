import * as z from './zod.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from './booking-schema.ts';

// The worker e-mail's inputs, one contract for the Workers tab's forms and the server
// (admin-dashboard.md §5: "worker email and at least one route required; name optional").

export const WORKER_MESSAGES = {
  emailInvalid: 'Valid email is required',
  nameTooLong: `Name must be ${NAME_MAX_LENGTH} characters or fewer`,
  noRoutes: 'There are no routes for tomorrow.',
  noActiveWorkers: 'There are no active workers to notify.',
} as const;

/** admin-dashboard.md §9: "up to 5 addresses per booking in the worker preview". */
export const WORKER_PREVIEW_MAX_ADDRESSES = 5;

/** Lower-cased, so one address is one worker whatever its capitals. */
export const workerEmailSchema = z
  .string({ error: WORKER_MESSAGES.emailInvalid })
  .trim()
  .max(EMAIL_MAX_LENGTH, { error: WORKER_MESSAGES.emailInvalid, abort: true })
  .regex(z.regexes.email, { error: WORKER_MESSAGES.emailInvalid })
  .transform((email) => email.toLowerCase());

/** Optional: blank means none. */
export const workerNameSchema = z
  .string()
  .trim()
  .max(NAME_MAX_LENGTH, { error: WORKER_MESSAGES.nameTooLong })
  .optional()
  .nullable()
  .transform((name) => (name ? name : null));

export const newWorkerSchema = z.object({ email: workerEmailSchema, name: workerNameSchema });
export type NewWorker = z.infer<typeof newWorkerSchema>;

/** A rename in a partial update: absent keeps the name, blank or null clears it. */
const workerRenameSchema = z
  .string()
  .trim()
  .max(NAME_MAX_LENGTH, { error: WORKER_MESSAGES.nameTooLong })
  .nullable()
  .optional()
  .transform((name) => (name === undefined ? undefined : name ? name : null));

/** A partial update: what the body does not name stays as it is. */
export const workerUpdateSchema = z
  .object({ name: workerRenameSchema, active: z.boolean().optional() })
  .refine((body) => body.name !== undefined || body.active !== undefined, { error: 'Nothing to update' });

/**
 * The manual send: one worker (`workerEmail`, optional `workerName`), or an empty body for every
 * active worker (admin-dashboard.md §7: "{workerEmail, workerName} or empty"). A name without an
 * e-mail is a form sent half-filled, not a send to everyone.
 */
export const sendNotificationsSchema = z
  .object({ workerEmail: workerEmailSchema.optional(), workerName: workerNameSchema })
  .refine((body) => body.workerEmail !== undefined || body.workerName == null, {
    error: WORKER_MESSAGES.emailInvalid,
    path: ['workerEmail'],
  });
export type SendNotificationsBody = z.infer<typeof sendNotificationsSchema>;
