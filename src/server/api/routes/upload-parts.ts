import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { and, eq, isNull, sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Database } from '../../../../db/client.ts';
import { uploadSessions, uploadedFiles } from '../../../../db/schema.ts';
import { MAX_UPLOAD_BYTES } from '../../../domain/booking-schema.ts';
import { UPLOAD_PART_BYTES, uploadPartCount, uploadPartLength } from '../../../domain/upload-parts.ts';
import type { AppEnv } from '../../app/request.ts';
import { AppError, badRequest, conflict, notFound } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { withinSiteCeiling } from '../../services/limits/site-ceilings.ts';
import { clientKey } from '../../services/limits/client-info.ts';
import { checkUnclaimedUploadQuota, checkUploadShare, isIdleSession } from '../../services/limits/upload-quota.ts';
import { detectFileType, sanitizeOriginalName } from '../../services/files/file-type.ts';
import { cleanStoredUpload } from '../../services/files/image-clean.ts';
import { UPLOAD_MESSAGES } from './uploads.ts';

// Large files in parts (domain/upload-parts.ts), for a store that is not Uploadcare: Netlify's
// function limit would refuse them whole. The browser opens an upload, sends each part (in any
// order, any part again after a failure: a part replaces itself), then completes it. The type is
// judged from part 0's content and the size limit from the declared total; every part must have
// exactly its expected length, so the assembled file is what was declared. The quota counts the
// bytes received (upload-quota.ts), each part checked against the client's share as it arrives,
// and an upload with no part for 15 minutes has ended. Completing twice answers with the same file.

export const UPLOAD_PART_MESSAGES = {
  notFound: 'This upload has expired. Please choose the file again.',
  wrongPart: 'This part does not belong to the file',
  wrongLength: 'This part has the wrong size',
  missingParts: 'Some parts of the file have not arrived yet',
  finished: 'This upload is already complete',
} as const;

// Three parts per file at most: room for a handful of large files and their retries.
const PART_LIMIT = { name: 'upload-part', limit: 120, windowSeconds: 10 * 60 };
const START_LIMIT = { name: 'upload', limit: 30, windowSeconds: 10 * 60 };

const startSchema = z.object({
  name: z.string({ error: UPLOAD_MESSAGES.missingFile }).trim().min(1, { error: UPLOAD_MESSAGES.missingFile }).max(255),
  size: z.number({ error: UPLOAD_MESSAGES.emptyFile }).int({ error: UPLOAD_MESSAGES.emptyFile }),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const partName = (uploadId: string, index: number) => `${uploadId}.part${index}`;
const fullMask = (count: number) => (1 << count) - 1;

export const uploadPartRoutes = new Hono<AppEnv>()
  .post('/upload/parts', rateLimit(START_LIMIT), async (c) => {
    const { db, env, now } = c.get('deps');
    const { name, size } = await readJson(c, startSchema);
    if (size <= 0) throw badRequest(UPLOAD_MESSAGES.emptyFile, { file: UPLOAD_MESSAGES.emptyFile });
    if (size > MAX_UPLOAD_BYTES) throw new AppError(413, UPLOAD_MESSAGES.tooLarge, { file: UPLOAD_MESSAGES.tooLarge });
    const client = await clientKey(c);
    // Whether the declared file would fit today; from now on only its received bytes count.
    const { mustPay } = await checkUnclaimedUploadQuota(db, { incomingBytes: size, quotaMb: env.UNCLAIMED_UPLOAD_QUOTA_MB, clientShareMb: env.UNCLAIMED_UPLOAD_CLIENT_MB, client, now: now() });
    const id = randomUUID();
    const partCount = uploadPartCount(size);
    await withinSiteCeiling(
      c,
      'uploads',
      () => db.insert(uploadSessions).values({ id, originalName: name, fileSize: size, partSize: UPLOAD_PART_BYTES, partCount, clientKey: client, createdAt: now(), lastActivityAt: now() }),
      { mustPay },
    );
    return c.json({ uploadId: id, partSize: UPLOAD_PART_BYTES, partCount }, 201);
  })

  .put(
    '/upload/parts/:id/:index',
    rateLimit(PART_LIMIT),
    bodyLimit({
      maxSize: UPLOAD_PART_BYTES,
      onError: () => {
        throw new AppError(413, UPLOAD_PART_MESSAGES.wrongLength);
      },
    }),
    async (c) => {
      const { db, files, env, now } = c.get('deps');
      const session = await findOpenSession(c.req.param('id'), db, now());
      const index = /^\d{1,2}$/.test(c.req.param('index')) ? Number(c.req.param('index')) : -1;
      if (index < 0 || index >= session.partCount) throw badRequest(UPLOAD_PART_MESSAGES.wrongPart);
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      if (bytes.byteLength !== uploadPartLength(session.fileSize, index, session.partSize)) {
        throw badRequest(UPLOAD_PART_MESSAGES.wrongLength);
      }
      if (index === 0) {
        // The binary types only: an SVG is judged as a whole document, through POST /api/upload.
        const type = detectFileType(bytes.subarray(0, 4096));
        if (!type || type.mimeType === 'image/svg+xml') {
          throw new AppError(415, UPLOAD_MESSAGES.unsupportedType, { file: UPLOAD_MESSAGES.unsupportedType });
        }
        await db.update(uploadSessions).set({ mimeType: type.mimeType }).where(eq(uploadSessions.id, session.id));
      }
      // A part sent again replaces itself and adds nothing; a new one counts from now on.
      const isNew = !(session.receivedMask & (1 << index));
      if (isNew && session.clientKey) {
        await checkUploadShare(db, { incomingBytes: bytes.byteLength, clientShareMb: env.UNCLAIMED_UPLOAD_CLIENT_MB, client: session.clientKey, now: now() });
      }
      await files.putPart(partName(session.id, index), bytes);
      await db
        .update(uploadSessions)
        .set({
          receivedMask: sql`${uploadSessions.receivedMask} | ${1 << index}`,
          receivedBytes: sql`${uploadSessions.receivedBytes} + (case when ${uploadSessions.receivedMask} & ${1 << index} = 0 then ${bytes.byteLength} else 0 end)`,
          lastActivityAt: now(),
        })
        .where(eq(uploadSessions.id, session.id));
      return c.json({ part: index, size: bytes.byteLength });
    },
  )

  .post('/upload/parts/:id/complete', rateLimit(PART_LIMIT), async (c) => {
    const { db, files, now } = c.get('deps');
    const id = c.req.param('id');
    if (!UUID.test(id)) throw notFound(UPLOAD_PART_MESSAGES.notFound);
    const answer = await db.transaction(async (tx) => {
      const [session] = await tx.select().from(uploadSessions).where(eq(uploadSessions.id, id)).for('update');
      if (!session) throw notFound(UPLOAD_PART_MESSAGES.notFound);
      if (!session.fileName && isIdleSession(session.lastActivityAt, now())) throw notFound(UPLOAD_PART_MESSAGES.notFound);
      if (session.fileName) {
        // Completed before (a retried request): the same file.
        const [row] = await tx.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, session.fileName));
        if (!row) throw notFound(UPLOAD_PART_MESSAGES.notFound);
        return { row, status: 200 as const };
      }
      if (session.receivedMask !== fullMask(session.partCount) || !session.mimeType) {
        const missing = Array.from({ length: session.partCount }, (_, index) => index).filter((index) => !(session.receivedMask & (1 << index)));
        throw conflict(UPLOAD_PART_MESSAGES.missingParts, { parts: missing.join(',') });
      }
      // Its received bytes were counted against the quota as they arrived (upload-quota.ts).
      const extension = EXTENSIONS[session.mimeType] ?? 'bin';
      const fileName = `${randomUUID()}.${extension}`;
      const parts = Array.from({ length: session.partCount }, (_, index) => partName(session.id, index));
      await files.assemble(fileName, parts, session.mimeType);
      // An image is stored as its clean copy, with no camera metadata (services/files/image-clean.ts).
      const fileSize = await cleanStoredUpload(files, fileName, session.mimeType, session.fileSize);
      const [row] = await tx
        .insert(uploadedFiles)
        .values({
          fileName,
          originalName: sanitizeOriginalName(session.originalName, extension),
          fileSize,
          mimeType: session.mimeType,
          storage: files.kind,
            clientKey: session.clientKey,
          createdAt: now(),
        })
        .returning();
      await tx.update(uploadSessions).set({ fileName }).where(and(eq(uploadSessions.id, id), isNull(uploadSessions.fileName)));
      return { row: row!, status: 201 as const };
    });
    const { row, status } = answer;
    return c.json({ filename: row.fileName, originalName: row.originalName, fileSize: row.fileSize, mimeType: row.mimeType }, status);
  });

const EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'application/pdf': 'pdf' };

async function findOpenSession(id: string, db: Database, now: Date) {
  if (!UUID.test(id)) throw notFound(UPLOAD_PART_MESSAGES.notFound);
  const [session] = await db.select().from(uploadSessions).where(eq(uploadSessions.id, id));
  if (!session) throw notFound(UPLOAD_PART_MESSAGES.notFound);
  if (session.fileName) throw conflict(UPLOAD_PART_MESSAGES.finished);
  // Idle for 15 minutes: the upload has ended (its parts count for nothing and are deleted).
  if (isIdleSession(session.lastActivityAt, now)) throw notFound(UPLOAD_PART_MESSAGES.notFound);
  return session;
}
