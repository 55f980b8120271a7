import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../deps.ts';
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
  resendMessage,
} from '../../services/messages/staff-messages.ts';

export const INVALID_RECIPIENT = 'to must be an e-mail address of at most 254 characters.';
export const INVALID_KIND = 'kind must be a message kind such as booking-confirmation.';

// An empty parameter means "no filter": the list's "All kinds" sends ''.
const filterSchema = z.object({
  to: z.string().trim().max(254, INVALID_RECIPIENT).optional(),
  kind: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{0,60}$/, INVALID_KIND)
    .optional(),
});

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
    const message = await readMessage(c.get('deps').db, parseMessageId(c.req.param('id')));
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
    const result = await resendMessage(c.get('deps'), id, { actor: adminActor(c), idempotencyKey });
    if (result.deliverMail) afterResponse(c, result.deliverMail);
    return c.json(result.body, 202);
  });
