import { and, count, desc, eq, ne, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import type { Database } from '../../../../db/client.ts';
import { bookingInstallationDay, bookings } from '../../../../db/schema.ts';
import { TOTAL_PROJECT_STEPS } from '../../../domain/project-steps.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { badRequest } from '../../api/errors.ts';
import { bookingSearchCondition } from '../bookings/admin-bookings.ts';
import { afterCursor, encodeCursor, MAX_PAGE_SIZE, microsOf, readPageRequest, type PageRequest } from '../lib/keyset-page.ts';
import { toProjectsJson } from './project-progress.ts';

export const PROJECT_LIST_MESSAGES = {
  step: `step must be a whole number from 1 to ${TOTAL_PROJECT_STEPS}`,
  date: 'date must be a calendar date (YYYY-MM-DD)',
  test: 'test must be true or false',
} as const;

const MAX_SEARCH_LENGTH = 100;

export interface ProjectListQuery extends PageRequest {
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
});

/** Reads the list's query string; a bad filter is a 400 naming the field, never a 500. */
export function readProjectListQuery(query: Record<string, string | undefined>): ProjectListQuery {
  const parsed = filterSchema.safeParse({
    step: query.step || undefined,
    date: query.date || undefined,
    test: query.test || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(issue.message, { [String(issue.path[0] ?? 'query')]: issue.message });
  }
  return {
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
 * One page of the Projects tab: active bookings, filtered by step, installation day and the
 * admin's search, newest first and keyset-paged like the Bookings tab. Without a day filter the
 * first page starts with today's installations (a day's work is a few dozen at most, capped at a
 * full page), because that is what staff look at first; the pages after it leave them out.
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
  const todayFirst = query.date === null;
  const newestFirst = [desc(bookings.createdAt), desc(bookings.id)];

  const [todays, rows, [total]] = await Promise.all([
    todayFirst && !query.cursor
      ? db
          .select()
          .from(bookings)
          .where(and(filter, onInstallationDay(today)))
          .orderBy(...newestFirst)
          .limit(MAX_PAGE_SIZE)
      : Promise.resolve([]),
    db
      .select({ booking: bookings, micros: microsOf(bookings.createdAt) })
      .from(bookings)
      .where(
        and(
          filter,
          dayFilter,
          todayFirst ? ne(bookingInstallationDay(bookings), today) : undefined,
          afterCursor(bookings.createdAt, bookings.id, query.cursor),
        ),
      )
      .orderBy(...newestFirst)
      .limit(query.limit + 1),
    db.select({ total: count() }).from(bookings).where(and(filter, dayFilter)),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeCursor(last.micros, last.booking.id) : null;
  const todayIds = new Set(todays.map((row) => row.id));
  const items = await toProjectsJson(db, [...todays, ...page.map((row) => row.booking)]);
  return {
    items: items.map((item) => ({ ...item, isToday: todayIds.has(item.id) || query.date === today })),
    total: total?.total ?? 0,
    nextCursor,
  };
}
