import { Hono } from 'hono';
import * as z from 'zod';
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../../../../db/schema.ts';
import { ROLE_FORBIDDEN } from '../../../domain/staff-roles.ts';
import { AppError } from '../../app/errors.ts';
import type { AppEnv } from '../../app/request.ts';
import { validate } from '../middleware/body.ts';
import { adminActor, requireAdmin } from '../middleware/admin-auth.ts';
import { afterResponse } from '../background.ts';
import { contentDisposition } from './files.ts';
import { setPageHeaders } from './admin-bookings.ts';
import { parseBookingId } from '../../services/bookings/admin-bookings.ts';
import { readIdempotencyKey } from '../../services/bookings/idempotency.ts';
import { readPageRequest } from '../../services/lib/keyset-page.ts';
import {
  listBookingMessages,
  listMessages,
  parseMessageId,
  readMessage,
  readMessageAttachment,
  RESEND_LINK_CHOICES,
  resendMessage,
} from '../../services/messages/staff-messages.ts';

export const INVALID_RECIPIENT = 'to must be at most 254 characters.';
export const INVALID_KIND = 'kind must be a message kind such as booking-confirmation.';
export const INVALID_LINK_CHOICE = `link must be one of ${RESEND_LINK_CHOICES.join(', ')}.`;

// An empty parameter means "no filter": the list's "All kinds" sends ''.
const filterSchema = z.object({
  to: z.string().trim().max(254, INVALID_RECIPIENT).optional(),
  kind: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{0,60}$/, INVALID_KIND)
    .optional(),
});

const resendQuerySchema = z.object({ link: z.enum(RESEND_LINK_CHOICES, { error: INVALID_LINK_CHOICE }).optional() });

/** A booking's Messages view (api.md "Staff messages"), next to the other admin booking calls. */
export const adminBookingMessageRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/:id/messages', async (c) => {
    const messages = await listBookingMessages(c.get('deps').db, parseBookingId(c.req.param('id')));
    c.header('Cache-Control', 'no-store');
    return c.json(messages);
  });

/** Every message the site wrote, one message as sent, its attachments, and Resend. Admin only. */
export const adminMessageRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => {
    const filters = validate(filterSchema, { to: c.req.query('to'), kind: c.req.query('kind') });
    const page = await listMessages(c.get('deps').db, {
      to: filters.to || undefined,
      kind: filters.kind || undefined,
      ...readPageRequest(c.req.query()),
    });
    setPageHeaders(c, page);
    return c.json(page.items);
  })
  .get('/:id', async (c) => {
    const { db, now } = c.get('deps');
    const message = await readMessage(db, parseMessageId(c.req.param('id')), now());
    c.header('Cache-Control', 'no-store');
    // An invitation or reset link signs its holder in as that person: only owners see it.
    if (message.kind.startsWith('staff-') && c.get('adminUser')?.role !== 'owner') {
      const hide = (value: string) => value.replace(/(\/admin\/accept\?t=)[\w-]+/g, '$1[hidden]');
      return c.json({ ...message, text: hide(message.text), html: message.html === null ? null : hide(message.html) });
    }
    return c.json(message);
  })
  .get('/:id/attachments/:n', async (c) => {
    const file = await readMessageAttachment(c.get('deps').db, parseMessageId(c.req.param('id')), c.req.param('n'));
    // A download, never a page: the attachment is whatever the message carried.
    return c.body(new Uint8Array(file.body), 200, {
      'Content-Type': file.contentType,
      'Content-Length': String(file.body.length),
      'Content-Disposition': contentDisposition('attachment', file.filename),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  })
  .post('/:id/resend', async (c) => {
    const id = parseMessageId(c.req.param('id'));
    const idempotencyKey = readIdempotencyKey(c.req.header('idempotency-key'));
    // ?link=fresh|as-is: staff's answer to the warning about a link that no longer works.
    const { link } = validate(resendQuerySchema, { link: c.req.query('link') || undefined });
    // Account e-mails (invitations, resets) carry a link that signs its holder in: owners only.
    const [message] = await c.get('deps').db.select({ kind: emailOutbox.kind }).from(emailOutbox).where(eq(emailOutbox.id, id)).limit(1);
    if (message?.kind.startsWith('staff-') && c.get('adminUser')?.role !== 'owner') throw new AppError(403, ROLE_FORBIDDEN);
    const result = await resendMessage(c.get('deps'), id, { actor: adminActor(c), idempotencyKey, link });
    if (result.deliverMail) afterResponse(c, result.deliverMail);
    return c.json(result.body, 202);
  });
