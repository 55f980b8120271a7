import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import type { Database } from '../../../../db/client.ts';
import { bookingInstallationDay, bookings } from '../../../../db/schema.ts';
import { TOTAL_PROJECT_STEPS } from '../../../domain/project-steps.ts';
import { installationDay, londonDate } from '../../../domain/schedule.ts';
import { PROJECT_SORTS, type ProjectSort } from '../../../domain/project-sorts.ts';
import { badRequest } from '../../app/errors.ts';
import { bookingSearchCondition } from '../bookings/admin-bookings.ts';
import { afterCursor, encodeCursor, microsOf, readPageRequest, type PageRequest } from '../lib/keyset-page.ts';
import { toProjectsJson } from './project-json.ts';

export const PROJECT_LIST_MESSAGES = {
  step: `step must be a whole number from 1 to ${TOTAL_PROJECT_STEPS}`,
  date: 'date must be a calendar date (YYYY-MM-DD)',
  test: 'test must be true or false',
  sort: `sort must be one of ${PROJECT_SORTS.join(', ')}`,
} as const;

const MAX_SEARCH_LENGTH = 100;

export interface ProjectListQuery extends PageRequest {
  /** 'day' (the default): by installation day, today first; 'newest': newest booking first. */
  sort: ProjectSort;
  step: number | null;
  /** A London calendar day: only the projects whose crew is expected that day. */
  date: string | null;
  q: string;
  /** Only test bookings (the count behind 'Archive N Test Booking(s)'). */
  testOnly: boolean;
}

const filterSchema = z.object({
  step: z.coerce
    .number({ error: PROJECT_LIST_MESSAGES.step })
    .int({ error: PROJECT_LIST_MESSAGES.step })
    .min(1, { error: PROJECT_LIST_MESSAGES.step })
    .max(TOTAL_PROJECT_STEPS, { error: PROJECT_LIST_MESSAGES.step })
    .optional(),
  date: z.iso.date({ error: PROJECT_LIST_MESSAGES.date }).optional(),
  test: z.enum(['true', 'false'], { error: PROJECT_LIST_MESSAGES.test }).optional(),
  sort: z.enum(PROJECT_SORTS, { error: PROJECT_LIST_MESSAGES.sort }).optional(),
});

/** Reads the list's query string; a bad filter is a 400 naming the field, never a 500. */
export function readProjectListQuery(query: Record<string, string | undefined>): ProjectListQuery {
  const parsed = filterSchema.safeParse({
    step: query.step || undefined,
    date: query.date || undefined,
    test: query.test || undefined,
    sort: query.sort || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(issue.message, { [String(issue.path[0] ?? 'query')]: issue.message });
  }
  return {
    sort: parsed.data.sort ?? 'day',
    step: parsed.data.step ?? null,
    date: parsed.data.date ?? null,
    q: (query.q ?? '').slice(0, MAX_SEARCH_LENGTH),
    testOnly: parsed.data.test === 'true',
    ...readPageRequest(query),
  };
}

/** The projects whose crew is expected on `day` (London), through bookings_installation_day_idx. */
function onInstallationDay(day: string): SQL {
  return eq(bookingInstallationDay(bookings), day);
}

/**
 * Where a project stands in the day order, as one whole number (smaller first): installations
 * staff scheduled for today or later, soonest first; then projects with no installation date yet,
 * by the customer's preferred date; then past installations, latest first. A number, so the order
 * pages by keyset with the same cursor as the newest-first lists (keyset-page.ts).
 */
function dayOrderKey(today: string): SQL<string> {
  const day = bookingInstallationDay(bookings);
  const days = sql`(${day} - date '2000-01-01')`;
  return sql<string>`(case
    when ${bookings.installationDate} is null then 1000000 + ${days}
    when ${day} >= ${today}::date then ${days}
    else 2000000 - ${days} end + 500000)::bigint::text`;
}

async function listByDay(db: Database, query: ProjectListQuery, filter: SQL | undefined, today: string) {
  const key = dayOrderKey(today);
  const after = query.cursor ? sql`(${key}::bigint, ${bookings.id}) > (${query.cursor.micros}::bigint, ${query.cursor.id})` : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ booking: bookings, key })
      .from(bookings)
      .where(and(filter, after))
      .orderBy(asc(sql`${key}::bigint`), asc(bookings.id))
      .limit(query.limit + 1),
    db.select({ total: count() }).from(bookings).where(filter),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeCursor(last.key, last.booking.id) : null;
  const items = await toProjectsJson(db, page.map((row) => row.booking));
  return { items: items.map((item) => ({ ...item, isToday: installationDay(item) === today })), total: total?.total ?? 0, nextCursor };
}

/**
 * One page of the Projects tab: active bookings, filtered by step, installation day and the
 * admin's search, keyset-paged like the Bookings tab. By default in the day order (dayOrderKey),
 * because what staff look at first is today's and the next days' work; or newest booking first.
 */
export async function listProjectsPage(db: Database, query: ProjectListQuery, now: Date) {
  const today = londonDate(now);
  const filter = and(
    eq(bookings.archived, false),
    query.step === null ? undefined : eq(bookings.currentStep, query.step),
    query.testOnly ? eq(bookings.isTest, true) : undefined,
    bookingSearchCondition(query.q),
  );
  const dayFilter = query.date === null ? undefined : onInstallationDay(query.date);
  if (query.sort === 'day') return listByDay(db, query, and(filter, dayFilter), today);

  // Newest booking first means exactly that: today's installations keep their place (their rows
  // say "Today"), they are not pinned above newer bookings.
  const newestFirst = [desc(bookings.createdAt), desc(bookings.id)];
  const [rows, [total]] = await Promise.all([
    db
      .select({ booking: bookings, micros: microsOf(bookings.createdAt) })
      .from(bookings)
      .where(and(filter, dayFilter, afterCursor(bookings.createdAt, bookings.id, query.cursor)))
      .orderBy(...newestFirst)
      .limit(query.limit + 1),
    db.select({ total: count() }).from(bookings).where(and(filter, dayFilter)),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeCursor(last.micros, last.booking.id) : null;
  const items = await toProjectsJson(db, page.map((row) => row.booking));
  return {
    items: items.map((item) => ({ ...item, isToday: installationDay(item) === today })),
    total: total?.total ?? 0,
    nextCursor,
  };
}
