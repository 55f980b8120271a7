import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../../app/request.ts';
import { AppError, notFound } from '../../app/errors.ts';
import { readJson, readMultipartForm } from '../middleware/body.ts';
import { adminActor, requireAdmin } from '../middleware/admin-auth.ts';
import { toBookingJson } from '../../services/bookings/booking-view.ts';
import {
  addProgressNote,
  deleteProgressLog,
  progressNoteSchema,
  progressUpdateSchema,
  updateProgress,
} from '../../services/projects/project-progress.ts';
import {
  deletePhoto,
  MAX_PHOTO_BYTES,
  MAX_THUMBNAIL_BYTES,
  PHOTO_MESSAGES,
  uploadPhoto,
} from '../../services/projects/project-photos.ts';
import { setPhotoHidden } from '../../services/projects/photo-visibility.ts';
import { listProjectsPage, readProjectListQuery } from '../../services/projects/projects-list.ts';
import { setPageHeaders } from './admin-bookings.ts';

/** Room for the multipart framing and the small text fields around the photo and its thumbnail. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** Route ids are positive integers; anything else names no row. */
function idParam(c: Context<AppEnv>, message: string): number {
  const raw = c.req.param('id') ?? '';
  const id = Number(raw);
  if (!/^\d{1,9}$/.test(raw) || !Number.isSafeInteger(id) || id < 1) throw notFound(message);
  return id;
}

const actorOf = (c: Context<AppEnv>) => ({ userId: adminActor(c), now: c.get('deps').now() });

/**
 * The Projects tab (admin-dashboard.md §2, §4, §7): progress, notes, history and photos. Mounted
 * at /api because the spec's paths span /api/admin, /api/bookings, /api/progress-logs and
 * /api/photos, so each route carries `requireAdmin` itself rather than a '*' guard that would
 * cover the public routes too.
 */
export const adminProjectRoutes = new Hono<AppEnv>()
  // ?step=&date=&q=&test=&cursor=&limit=; one page, with X-Total-Count and X-Next-Cursor.
  .get('/admin/projects', requireAdmin, async (c) => {
    const { db, now } = c.get('deps');
    const page = await listProjectsPage(db, readProjectListQuery(c.req.query()), now());
    setPageHeaders(c, page);
    return c.json(page.items);
  })

  .patch('/admin/bookings/:id/progress', requireAdmin, async (c) => {
    const bookingId = idParam(c, 'Booking not found');
    const input = await readJson(c, progressUpdateSchema);
    const booking = await updateProgress(c.get('deps'), bookingId, input, actorOf(c));
    return c.json(toBookingJson(booking));
  })

  .post('/admin/bookings/:id/notes', requireAdmin, async (c) => {
    const bookingId = idParam(c, 'Booking not found');
    const { notes } = await readJson(c, progressNoteSchema);
    const booking = await addProgressNote(c.get('deps').db, bookingId, notes, actorOf(c));
    return c.json(toBookingJson(booking));
  })

  .delete('/progress-logs/:id', requireAdmin, async (c) => {
    await deleteProgressLog(c.get('deps').db, idParam(c, 'Progress log not found'), actorOf(c));
    return c.body(null, 204);
  })

  .post(
    '/bookings/:id/photos',
    requireAdmin,
    // The API's 1 MB JSON limit skips multipart; this is the photo route's own, checked while
    // the body is read, so an oversized upload is refused before it is parsed.
    bodyLimit({
      maxSize: MAX_PHOTO_BYTES + MAX_THUMBNAIL_BYTES + MULTIPART_OVERHEAD_BYTES,
      onError: () => {
        throw new AppError(413, PHOTO_MESSAGES.tooLarge);
      },
    }),
    async (c) => {
      const bookingId = idParam(c, PHOTO_MESSAGES.bookingNotFound);
      const form = await readMultipartForm(c, 'Send the photo as multipart/form-data in the field "photo"');
      const photo = await uploadPhoto(
        c.get('deps'),
        bookingId,
        {
          photo: form.get('photo'),
          thumbnail: form.get('thumbnail'),
          photoType: form.get('photoType'),
          step: form.get('step'),
          description: form.get('description'),
        },
        actorOf(c),
      );
      return c.json(photo, 201);
    },
  )

  .delete('/photos/:id', requireAdmin, async (c) => {
    await deletePhoto(c.get('deps'), idParam(c, PHOTO_MESSAGES.photoNotFound), actorOf(c));
    return c.body(null, 204);
  })

  // Hide a photo from the customer, or show it again: 200 {id, bookingId, hiddenAt}; asking twice changes nothing.
  .post('/photos/:id/hide', requireAdmin, (c) => changeVisibility(c, true))
  .post('/photos/:id/show', requireAdmin, (c) => changeVisibility(c, false));

async function changeVisibility(c: Context<AppEnv>, hidden: boolean) {
  const photo = await setPhotoHidden(c.get('deps').db, idParam(c, PHOTO_MESSAGES.photoNotFound), hidden, actorOf(c));
  if (!photo) throw notFound(PHOTO_MESSAGES.photoNotFound);
  return c.json(photo);
}
