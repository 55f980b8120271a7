import { randomUUID } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { eq } from 'drizzle-orm';
import * as z from 'zod';
import { uploadedFiles } from '../../../../db/schema.ts';
import { MAX_UPLOAD_BYTES } from '../../../domain/booking-schema.ts';
import type { AppEnv } from '../../app/request.ts';
import { AppError, badRequest, conflict, notConfigured } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import {
  FileTooLargeError,
  MalformedMultipartError,
  multipartBoundary,
  receiveMultipartFile,
  type ReceivedFile,
} from '../multipart-file.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { withinSiteCeiling } from '../../services/limits/site-ceilings.ts';
import { clientKey } from '../../services/limits/client-info.ts';
import { checkUnclaimedUploadQuota } from '../../services/limits/upload-quota.ts';
import { detectFileType, judgeFileContent, sanitizeOriginalName, type AllowedFileType } from '../../services/files/file-type.ts';
import { cleanStagedUpload, IMAGE_MESSAGES } from '../../services/files/image-clean.ts';
import { createUploadcare, UploadcareUnavailableError } from '../../providers/uploadcare.ts';

export const UPLOAD_MESSAGES = {
  tooLarge: 'File is too large. The maximum size is 10MB.',
  unsupportedType: 'Unsupported file type. Please upload a PNG, JPG, SVG or PDF.',
  unsafeSvg: 'SVG files with scripts or external references are not accepted',
  missingFile: 'Please choose a file to upload',
  emptyFile: 'The file is empty',
  notMultipart: 'Send the file as multipart/form-data in the field "file"',
  malformed: 'Malformed multipart body',
  uploadcareNotConfigured: 'Uploadcare is not configured',
  uploadcareUnavailable: 'File storage is unavailable right now. Please try again.',
  uploadcareNotFound: 'Uploaded file not found',
  uploadcareNotReady: 'The file is still being processed. Please try again in a moment.',
  svgThroughSite: 'SVG files must be uploaded through the site so they can be checked',
} as const;

/** Room for the multipart boundaries and part headers around a file of the maximum size. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

// A person attaches a handful of files per booking; a script filling the store gets 429.
const UPLOAD_LIMIT = { name: 'upload', limit: 30, windowSeconds: 10 * 60 };
const SIGNATURE_LIMIT = { name: 'upload-signature', limit: 60, windowSeconds: 10 * 60 };

/**
 * The types Uploadcare may report for a file we accept (its detection, from the content).
 * SVG is not among them: its content must pass svgRefusalReason, which only the direct
 * upload runs, so the browser sends SVG logos (small by nature) through /api/upload.
 */
const UPLOADCARE_TYPES: Readonly<Record<string, AllowedFileType>> = {
  'image/png': { mimeType: 'image/png', extension: 'png' },
  'image/jpeg': { mimeType: 'image/jpeg', extension: 'jpg' },
  'image/pjpeg': { mimeType: 'image/jpeg', extension: 'jpg' },
  'application/pdf': { mimeType: 'application/pdf', extension: 'pdf' },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uploadcareFileSchema = z.object({
  uuid: z.string({ error: 'Invalid file id' }).trim().regex(UUID, { error: 'Invalid file id' }),
});

/** The first bytes are enough to know a PNG, JPEG or PDF. */
const SNIFF_BYTES = 4096;

async function receiveUpload(body: ReadableStream<Uint8Array> | null, boundary: string, target: string): Promise<ReceivedFile> {
  let file: ReceivedFile | null;
  try {
    file = await receiveMultipartFile(body, boundary, { field: 'file', maxBytes: MAX_UPLOAD_BYTES, target, headBytes: SNIFF_BYTES });
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new AppError(413, UPLOAD_MESSAGES.tooLarge, { file: UPLOAD_MESSAGES.tooLarge });
    if (error instanceof MalformedMultipartError) throw badRequest(UPLOAD_MESSAGES.malformed);
    // The body limit's own error passes through to its 413.
    throw error;
  }
  if (!file) throw badRequest(UPLOAD_MESSAGES.missingFile, { file: UPLOAD_MESSAGES.missingFile });
  if (file.size === 0) throw badRequest(UPLOAD_MESSAGES.emptyFile, { file: UPLOAD_MESSAGES.emptyFile });
  return file;
}

/** The file's type by its content (file-type.ts), or the 415 an upload gets for it. */
export function judgedType(bytes: Uint8Array): AllowedFileType {
  const judged = judgeFileContent(bytes);
  if ('type' in judged) return judged.type;
  if (judged.refused === 'too-many-pixels') throw new AppError(413, IMAGE_MESSAGES.tooManyPixels, { file: IMAGE_MESSAGES.tooManyPixels });
  const message = judged.refused === 'unsafe-svg' ? UPLOAD_MESSAGES.unsafeSvg : UPLOAD_MESSAGES.unsupportedType;
  throw new AppError(415, message, { file: message });
}

/** Judges the staged file's type by its content, then stores and records it. */
async function storeUpload(c: Context<AppEnv>, file: ReceivedFile) {
  let type = detectFileType(file.head);
  // SVG is text, judged as a whole document (and small by nature): anything that is not one of
  // the binary types is read back and judged in full.
  if (!type || type.mimeType === 'image/svg+xml') type = judgedType(new Uint8Array(await readFile(file.path)));

  const { db, files, env, now } = c.get('deps');
  const client = await clientKey(c);
  // Past the site quota a client that has stored nothing pays in work (upload-quota.ts).
  const { mustPay } = await checkUnclaimedUploadQuota(db, { incomingBytes: file.size, quotaMb: env.UNCLAIMED_UPLOAD_QUOTA_MB, clientShareMb: env.UNCLAIMED_UPLOAD_CLIENT_MB, client, now: now() });
  // An image refused while it is cleaned (too many pixels, not decodable) is given back.
  return withinSiteCeiling(c, 'uploads', async () => {
    const fileName = `${randomUUID()}.${type.extension}`;
    const originalName = sanitizeOriginalName(file.name, type.extension);
    // An image is stored as its clean copy (services/files/image-clean.ts): staff and the customer
    // see it, and a camera's GPS position must not travel with it.
    const fileSize = await cleanStagedUpload(file.path, type.mimeType, file.size);
    await files.putFile(fileName, file.path, type.mimeType);
    try {
      await db.insert(uploadedFiles).values({
        fileName,
        originalName,
        fileSize,
        mimeType: type.mimeType,
        storage: files.kind,
        clientKey: client,
        createdAt: now(),
      });
    } catch (error) {
      await files.delete(fileName).catch(() => undefined);
      throw error;
    }
    return c.json({ filename: fileName, originalName, fileSize, mimeType: type.mimeType }, 201);
  }, { mustPay });
}

export const uploadRoutes = new Hono<AppEnv>()
  .post(
    '/upload',
    rateLimit(UPLOAD_LIMIT),
    // This route's own limit (the API's 1 MB JSON limit skips multipart): a file of the maximum
    // size plus its multipart framing. Anything larger is refused before it is parsed.
    bodyLimit({
      maxSize: MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES,
      onError: () => {
        throw new AppError(413, UPLOAD_MESSAGES.tooLarge);
      },
    }),
    async (c) => {
      const contentType = c.req.header('content-type');
      if (!contentType?.toLowerCase().startsWith('multipart/form-data')) {
        throw new AppError(415, UPLOAD_MESSAGES.notMultipart);
      }
      const boundary = multipartBoundary(contentType);
      if (!boundary) throw badRequest(UPLOAD_MESSAGES.malformed);
      // Streamed to a staging file as it arrives (api/multipart-file.ts), never held whole.
      const staged = path.join(os.tmpdir(), `cp-upload-${randomUUID()}`);
      try {
        return await storeUpload(c, await receiveUpload(c.req.raw.body, boundary, staged));
      } finally {
        await rm(staged, { force: true });
      }
    },
  )

  // Production path: the browser uploaded to Uploadcare itself; the server checks the file there.
  // It is not stored yet: the booking that claims it stores it (services/bookings/bookings.ts).
  .post('/upload/uploadcare', rateLimit(UPLOAD_LIMIT), async (c) => {
    const { db, env } = c.get('deps');
    const uploadcare = createUploadcare(env);
    if (!uploadcare) throw notConfigured(UPLOAD_MESSAGES.uploadcareNotConfigured);
    const { uuid } = await readJson(c, uploadcareFileSchema);

    let info;
    try {
      info = await uploadcare.fileInfo(uuid.toLowerCase());
    } catch (error) {
      if (error instanceof UploadcareUnavailableError) {
        c.get('deps').log.warn('Uploadcare verification failed', { error: error.message });
        throw new AppError(503, UPLOAD_MESSAGES.uploadcareUnavailable);
      }
      throw error;
    }
    if (!info || info.isRemoved) {
      throw badRequest(UPLOAD_MESSAGES.uploadcareNotFound, { uuid: UPLOAD_MESSAGES.uploadcareNotFound });
    }
    // Until Uploadcare has the whole file, its size and type are not final: nothing to judge yet.
    if (!info.isReady) throw conflict(UPLOAD_MESSAGES.uploadcareNotReady, { file: UPLOAD_MESSAGES.uploadcareNotReady });
    if (info.size > MAX_UPLOAD_BYTES) throw new AppError(413, UPLOAD_MESSAGES.tooLarge, { file: UPLOAD_MESSAGES.tooLarge });
    if (info.mimeType === 'image/svg+xml') {
      throw new AppError(415, UPLOAD_MESSAGES.svgThroughSite, { file: UPLOAD_MESSAGES.svgThroughSite });
    }
    const type = UPLOADCARE_TYPES[info.mimeType];
    if (!type) throw new AppError(415, UPLOAD_MESSAGES.unsupportedType, { file: UPLOAD_MESSAGES.unsupportedType });

    const fileName = uuid.toLowerCase();
    const originalName = sanitizeOriginalName(info.originalFilename, type.extension);
    const [known] = await db.select({ id: uploadedFiles.id }).from(uploadedFiles).where(eq(uploadedFiles.fileName, fileName));
    const { now } = c.get('deps');
    // A file already recorded (a retried request) adds nothing to the quota or the site's ceiling.
    const client = await clientKey(c);
    const insert = () =>
      db
        .insert(uploadedFiles)
        .values({ fileName, originalName, fileSize: info.size, mimeType: type.mimeType, storage: 'uploadcare', clientKey: client, createdAt: now() })
        .onConflictDoNothing({ target: uploadedFiles.fileName })
        .returning();
    const quota = known
      ? { mustPay: false }
      : await checkUnclaimedUploadQuota(db, { incomingBytes: info.size, quotaMb: env.UNCLAIMED_UPLOAD_QUOTA_MB, clientShareMb: env.UNCLAIMED_UPLOAD_CLIENT_MB, client, now: now() });
    const inserted = known ? await insert() : await withinSiteCeiling(c, 'uploads', insert, quota);
    // The same UUID verified twice (a retried request) is the same file.
    const row = inserted[0] ?? (await db.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, fileName)))[0]!;
    return c.json(
      { filename: row.fileName, originalName: row.originalName, fileSize: row.fileSize, mimeType: row.mimeType },
      inserted.length ? 201 : 200,
    );
  })

  .get('/upload/uploadcare-signature', rateLimit(SIGNATURE_LIMIT), (c) => {
    const { env, now } = c.get('deps');
    const uploadcare = createUploadcare(env);
    if (!uploadcare) throw notConfigured(UPLOAD_MESSAGES.uploadcareNotConfigured);
    return c.json(uploadcare.signUpload(now()));
  });
