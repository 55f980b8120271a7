import { Hono } from 'hono';
import { eq, or } from 'drizzle-orm';
import { photos, uploadedFiles } from '../../../../db/schema.ts';
import type { AppEnv } from '../../app/request.ts';
import { notFound } from '../../app/errors.ts';
import { readAdminSession, requireAdmin } from '../middleware/admin-auth.ts';

/**
 * Stored files (api.md: GET /uploads/{fileName}, GET /api/files/{fileName}).
 *
 * Project photos are public by their unguessable name (a completed project's public page shows
 * its after photos), served inline only as the raster types a browser cannot run: PNG, JPEG,
 * WebP. A photo staff hid from the customer is a 404 to everyone but signed-in staff, and never
 * kept by the browser (a name once seen, in an e-mail or an old page, opens nothing). Customers' brand files are for admins only and always a download in a sandbox, whatever
 * they hold (an SVG could carry script).
 */
const INLINE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
const THUMBNAIL_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };
const STORED_NAME = /^[\w-]+(\.[\w]+)?$/;
/** Photos never change under their name; browsers may keep them a while (private: not a shared cache). */
const PHOTO_CACHE = 'private, max-age=3600';

export const photoFileRoutes = new Hono<AppEnv>().get('/uploads/:fileName', async (c) => {
  const fileName = c.req.param('fileName');
  if (!STORED_NAME.test(fileName)) throw notFound();
  const { db, files } = c.get('deps');
  // A photo's thumbnail is stored under its own name beside the photo and served the same way.
  const [photo] = await db
    .select()
    .from(photos)
    .where(or(eq(photos.fileName, fileName), eq(photos.thumbnailFileName, fileName)))
    .limit(1);
  if (!photo) throw notFound();
  if (photo.hiddenAt && !(await readAdminSession(c))) throw notFound();
  const stored = await files.get(fileName);
  if (!stored) throw notFound();
  // The thumbnail's type was sniffed at upload and named by its extension; it may differ from the photo's.
  const mimeType = fileName === photo.fileName ? photo.mimeType : (THUMBNAIL_TYPES[fileName.split('.').pop() ?? ''] ?? '');
  const isInlineImage = INLINE_IMAGE_TYPES.has(mimeType);
  const disposition = c.req.query('download') === '1' || !isInlineImage ? 'attachment' : 'inline';
  return c.body(stored.body as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': isInlineImage ? mimeType : 'application/octet-stream',
    'Content-Length': String(stored.size),
    'Content-Disposition': contentDisposition(disposition, photo.originalName),
    'Cache-Control': photo.hiddenAt ? 'private, no-store' : PHOTO_CACHE,
    'X-Content-Type-Options': 'nosniff',
  });
});

export const brandFileRoutes = new Hono<AppEnv>().get('/files/:fileName', requireAdmin, async (c) => {
  const fileName = c.req.param('fileName');
  if (!STORED_NAME.test(fileName)) throw notFound();
  const { db, files } = c.get('deps');
  const [file] = await db.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, fileName)).limit(1);
  if (!file) throw notFound();
  if (file.storage === 'uploadcare') {
    // Uploadcare serves the file from its own domain, never this site's origin.
    return c.redirect(`https://ucarecdn.com/${file.fileName}/`, 302);
  }
  // Streamed: a 10 MB brand file is more than a Netlify function may answer in one buffered body.
  const stored = await files.stream(fileName);
  if (!stored) throw notFound();
  return c.body(stored.body, 200, {
    'Content-Type': file.mimeType,
    ...(stored.size >= 0 ? { 'Content-Length': String(stored.size) } : {}),
    'Content-Disposition': contentDisposition('attachment', file.originalName),
    'Content-Security-Policy': 'sandbox',
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
});

/** A header-safe file name: ASCII for old clients, the real name (RFC 5987) for the rest. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_').trim() || 'file';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
