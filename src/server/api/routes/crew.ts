import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as z from 'zod';
import { randomUUID } from 'node:crypto';
import { MAX_BOOKING_ID } from '../../../domain/booking-schema.ts';
import { CREW_MESSAGES } from '../../../domain/crew.ts';
import type { AppEnv } from '../../app/request.ts';
import { AppError, notFound } from '../../app/errors.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { readJson, readMultipartForm } from '../middleware/body.ts';
import { bearerToken, openCrewLink, type CrewSession } from '../../services/crew/crew-links.ts';
import { crewDay, markDone, markOnTheWay } from '../../services/crew/crew-day.ts';
import { addCrewPhoto } from '../../services/crew/crew-photos.ts';
import { undoDone } from '../../services/crew/crew-undo.ts';
import { MAX_PHOTO_BYTES, MAX_THUMBNAIL_BYTES, PHOTO_MESSAGES } from '../../services/projects/project-photos.ts';
import { readIdempotencyKey } from '../../services/bookings/idempotency.ts';

// The crew's calls (api.md "Crew day"). The crew link's token comes as `Authorization: Bearer`,
// never in the address, so it stays out of logs and Referer headers. A phone on a bad signal
// retries; each call is safe to repeat (photos by their Idempotency-Key).

/** A crew taps a few times a minute; a phone catching up after a dead zone sends its queue at once. */
const CREW_LIMIT = { name: 'crew', limit: 120, windowSeconds: 60 };
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

type CrewEnv = AppEnv & { Variables: AppEnv['Variables'] & { crew: CrewSession } };

const requireCrewLink: MiddlewareHandler<CrewEnv> = async (c, next) => {
  const { db, now } = c.get('deps');
  c.set('crew', await openCrewLink(db, bearerToken(c.req.header('authorization')), now()));
  // A crew's answers name customers: never kept by a shared cache or the browser's disk cache.
  c.header('Cache-Control', 'no-store');
  await next();
};

function stopId(c: Context<CrewEnv>): number {
  const raw = c.req.param('bookingId') ?? '';
  const id = Number(raw);
  if (!/^\d{1,9}$/.test(raw) || id < 1 || id > MAX_BOOKING_ID) throw notFound(CREW_MESSAGES.stopNotFound);
  return id;
}

/** A tap's optional body `{tappedAt}`: the phone's time of a tap that waited for signal. No body: now. */
const tapBody = z.object({ tappedAt: z.string().max(40).optional() });

async function readTap(c: Context<CrewEnv>): Promise<string | undefined> {
  if (!c.req.header('content-type')?.includes('application/json')) return undefined;
  return (await readJson(c as unknown as Context<AppEnv>, tapBody)).tappedAt;
}

export const crewRoutes = new Hono<CrewEnv>()
  .use('*', rateLimit(CREW_LIMIT))
  .use('*', requireCrewLink)
  .get('/day', async (c) => c.json(await crewDay(c.get('deps').db, c.get('crew'))))
  .post('/stops/:bookingId/on-the-way', async (c) => {
    const bookingId = stopId(c);
    return c.json(await markOnTheWay(c.get('deps'), c.get('crew'), bookingId, await readTap(c)));
  })
  .post('/stops/:bookingId/done', async (c) => {
    const bookingId = stopId(c);
    return c.json(await markDone(c.get('deps'), c.get('crew'), bookingId, await readTap(c)));
  })
  .post('/stops/:bookingId/undo-done', async (c) => c.json(await undoDone(c.get('deps'), c.get('crew'), stopId(c))))
  .post(
    '/stops/:bookingId/photos',
    bodyLimit({
      maxSize: MAX_PHOTO_BYTES + MAX_THUMBNAIL_BYTES + MULTIPART_OVERHEAD_BYTES,
      onError: () => {
        throw new AppError(413, PHOTO_MESSAGES.tooLarge);
      },
    }),
    async (c) => {
      const bookingId = stopId(c);
      const form = await readMultipartForm(c, 'Send the photo as multipart/form-data in the field "photo"');
      // The phone makes one key per photo it took and sends it with every retry.
      const key = readIdempotencyKey(c.req.header('idempotency-key')) ?? randomUUID();
      const photo = await addCrewPhoto(c.get('deps'), c.get('crew'), bookingId, {
        photo: form.get('photo'),
        thumbnail: form.get('thumbnail'),
        photoType: form.get('photoType'),
        takenAt: form.get('takenAt'),
        lat: form.get('lat'),
        lng: form.get('lng'),
        accuracy: form.get('accuracy'),
        clientUploadId: key,
      });
      // A retry gets the same answer as the first send: the photo stored then.
      const { replayed: _replayed, ...stored } = photo;
      return c.json(stored, 201);
    },
  );
