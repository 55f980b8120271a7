import { sql, type SQL, type AnyColumn } from 'drizzle-orm';
import * as z from 'zod';
import { badRequest } from '../../app/errors.ts';

/**
 * Newest-first paging for the admin's long lists (bookings, enquiries). A page starts after the
 * last row of the one before, by (created_at, id), so it stays an index scan however deep the
 * admin pages and never repeats or skips a row when new ones arrive meanwhile.
 *
 * The cursor carries created_at in whole microseconds, PostgreSQL's own precision: a JavaScript
 * Date keeps only milliseconds, and rounding there would skip rows created in the same millisecond.
 */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export interface PageRequest {
  limit: number;
  cursor: { micros: string; id: number } | null;
}

export const INVALID_CURSOR = 'This list position is no longer valid. Please reload the list.';

const pageQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .min(1, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
});

/** Reads `limit` and `cursor` from a query string; bad values are a 400, never a 500. */
export function readPageRequest(query: Record<string, string | undefined>): PageRequest {
  const parsed = pageQuerySchema.safeParse({ limit: query.limit || undefined, cursor: query.cursor || undefined });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'Invalid paging';
    throw badRequest(message, { limit: message });
  }
  return { limit: parsed.data.limit, cursor: parsed.data.cursor ? decodeCursor(parsed.data.cursor) : null };
}

export function encodeCursor(micros: string, id: number): string {
  return Buffer.from(`${micros}.${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { micros: string; id: number } {
  const match = /^(\d{1,18})\.(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isSafeInteger(id) || id > 2_147_483_647) throw badRequest(INVALID_CURSOR, { cursor: INVALID_CURSOR });
  return { micros: match[1]!, id };
}

/** created_at as whole microseconds since 1970, as text (exact: no float on the way). */
export function microsOf(createdAt: AnyColumn): SQL<string> {
  return sql<string>`(extract(epoch from ${createdAt}) * 1000000)::bigint::text`;
}

/** Rows strictly after the cursor in newest-first order; the index on (created_at desc, id desc) serves it. */
export function afterCursor(createdAt: AnyColumn, id: AnyColumn, cursor: PageRequest['cursor']): SQL | undefined {
  if (!cursor) return undefined;
  const at = sql`(timestamptz 'epoch' + ${cursor.micros}::bigint * interval '1 microsecond')`;
  return sql`(${createdAt}, ${id}) < (${at}, ${cursor.id})`;
}

/** Escapes LIKE's wildcards so a search for "50%" or "a_b" means those characters. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
