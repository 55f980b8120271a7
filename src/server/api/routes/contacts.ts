import { Hono } from 'hono';
import * as z from 'zod';
import { HONEYPOT_FIELD, contactPayloadSchema } from '../../../domain/contact-schema.ts';
import { fieldErrors } from '../../../domain/booking-schema.ts';
import type { AppEnv } from '../../app/request.ts';
import { badRequest } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { withinSiteCeiling } from '../../services/limits/site-ceilings.ts';
import { createContactEnquiry } from '../../services/enquiries/contact-enquiries.ts';
import { afterResponse } from '../background.ts';

// A person sends an enquiry or two; a script flooding the inbox (and the outbox) gets 429.
const CONTACT_LIMIT = { name: 'contact-enquiry', limit: 10, windowSeconds: 60 * 60 };

/** The public enquiry call (api.md). The admin's list of enquiries lives with the dashboard. */
export const contactRoutes = new Hono<AppEnv>().post('/', rateLimit(CONTACT_LIMIT), async (c) => {
  const body = await readJson(c, z.unknown());
  const parsed = contactPayloadSchema.safeParse(body);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error);
    throw badRequest(Object.values(fields)[0] ?? 'Invalid enquiry', fields);
  }
  // The honeypot: a field people never see. A script that fills it is told all went well, so it
  // learns nothing, and nothing is stored or mailed.
  if (parsed.data[HONEYPOT_FIELD]?.trim()) return c.json({ ok: true }, 201);
  const enquiry = await withinSiteCeiling(c, 'enquiries', () => createContactEnquiry(c.get('deps'), parsed.data));
  afterResponse(c, enquiry.deliverMail);
  return c.json({ ok: true }, 201);
});
