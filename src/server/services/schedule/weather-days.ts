import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../../db/client.ts';
import { bookings, crewAssignments, rescheduleLinks, weatherDays } from '../../../../db/schema.ts';
import { addDays, isIsoDate } from '../../../domain/format.ts';
import { badRequest, conflict } from '../../app/errors.ts';
import { installationWeatherMovedEmail } from '../../email/templates/index.ts';
import { bookingDay, isOnSchedule } from '../bookings/availability.ts';
import { hashIdempotencyKey, IDEMPOTENCY_MESSAGES } from '../bookings/idempotency.ts';
import { endDayCrewLinks } from '../crew/crew-links.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { moveBookingToDay } from './move-booking.ts';
import { newRescheduleToken, rescheduleUrl } from './reschedule-links.ts';
import { displayName, loadSchedule } from './schedule-days.ts';
import { planWeatherMoves, type Unplaced, type WeatherCandidate, type WeatherMove } from './weather-plan.ts';

// Rain days (api.md "Schedule and weather days"): the preview proposes where each booking of the
// day goes and changes nothing; the confirmation makes the moves in one transaction, closes the
// day for the regions (a weather_days row), e-mails each moved customer once, ends the day's crew
// links and logs the person. Replays and a second rain day for the same date move nothing twice.

export const WEATHER_MESSAGES = {
  invalidDate: 'Please enter a date as YYYY-MM-DD.',
  invalidRegions: 'regions must be a list of region names.',
  invalidMoves: 'moves must be a list of {bookingId, to}, each to a date after the rain day.',
  notOnDay: (id: number) => `Booking #${id} is not on that day in those regions.`,
  already: (date: string) => `A weather day for ${date} in those regions was already confirmed; nothing was moved again.`,
} as const;

export interface WeatherInput {
  date: string;
  /** Sorted, without repeats; empty: every region. */
  regions: string[];
  /** Staff's edited targets; absent: as planned. */
  moves?: { bookingId: number; to: string }[];
}

export interface WeatherAnswer {
  id?: number;
  date: string;
  moves: WeatherMove[];
  unplaced: Unplaced[];
}

interface WeatherRules {
  now: Date;
  capacity: number;
  windowDays: number;
}

export function readWeatherInput(body: { date?: unknown; regions?: unknown; moves?: unknown }): WeatherInput {
  const { date } = body;
  if (typeof date !== 'string' || !isIsoDate(date)) throw badRequest(WEATHER_MESSAGES.invalidDate, { date: WEATHER_MESSAGES.invalidDate });
  const regions = body.regions ?? [];
  if (!Array.isArray(regions) || regions.some((region) => typeof region !== 'string' || region.trim() === '' || region.length > 100) || regions.length > 200) {
    throw badRequest(WEATHER_MESSAGES.invalidRegions, { regions: WEATHER_MESSAGES.invalidRegions });
  }
  const input: WeatherInput = { date, regions: [...new Set(regions.map((region: string) => region.trim()))].sort() };
  if (body.moves !== undefined) {
    const moves = body.moves;
    const valid =
      Array.isArray(moves) &&
      moves.length <= 1000 &&
      moves.every(
        (move) =>
          move && typeof move === 'object' && Number.isSafeInteger(move.bookingId) && move.bookingId > 0 && typeof move.to === 'string' && isIsoDate(move.to) && move.to > date,
      );
    if (!valid) throw badRequest(WEATHER_MESSAGES.invalidMoves, { moves: WEATHER_MESSAGES.invalidMoves });
    input.moves = (moves as { bookingId: number; to: string }[]).map(({ bookingId, to }) => ({ bookingId, to }));
  }
  return input;
}

/** The key one set of regions is stored under: '*' for every region. */
const regionsKey = (regions: readonly string[]) => (regions.length ? regions.join('|') : '*');

/** The bookings of the rain day in the regions that can move: on the schedule (unpaid ones too), before step 4. */
async function loadCandidates(db: Database, { date, regions }: WeatherInput): Promise<WeatherCandidate[]> {
  const rows = await db
    .select({
      bookingId: bookings.id,
      businessName: displayName,
      region: bookings.region,
      quantity: bookings.quantity,
      paymentStatus: bookings.paymentStatus,
      createdAt: bookings.createdAt,
      currentStep: bookings.currentStep,
    })
    .from(bookings)
    .where(and(eq(bookingDay(), date), isOnSchedule(), regions.length ? inArray(bookings.region, regions) : undefined));
  return rows
    .filter((row) => row.currentStep < 4)
    .map(({ paymentStatus, currentStep: _step, ...row }) => ({ ...row, paid: paymentStatus === 'paid' }));
}

async function plan(db: Database, input: WeatherInput, { capacity, windowDays }: WeatherRules, inTransaction = false) {
  const candidates = await loadCandidates(db, input);
  const dates = Array.from({ length: windowDays }, (_, index) => addDays(input.date, index + 1));
  const days = await loadSchedule(db, dates, { capacity, inTransaction });
  const rooms = days.map((day) => ({ date: day.date, free: day.capacity - day.held, closed: day.closed, closedRegions: day.closedRegions ?? [] }));
  return { candidates, ...planWeatherMoves(input.date, candidates, rooms, windowDays) };
}

/** POST /api/admin/weather-days/preview: the proposed moves; changes nothing. */
export async function previewWeatherDay(db: Database, input: WeatherInput, rules: WeatherRules): Promise<WeatherAnswer> {
  const { moves, unplaced } = await plan(db, input, rules);
  return { date: input.date, moves, unplaced };
}

const overlaps = (a: readonly string[], b: readonly string[]) => a.length === 0 || b.length === 0 || a.some((region) => b.includes(region));

/**
 * POST /api/admin/weather-days. Under the rain day's lock (two staff at once: the second waits,
 * then finds the first's row and gets 409) and the booking locks of the day and the window (so no
 * booking takes the room planned here meanwhile). An edited move that no longer fits rolls the
 * whole confirmation back with that day's 409.
 */
export async function confirmWeatherDay(
  db: Database,
  input: WeatherInput,
  { key, actor, siteUrl, ...rules }: WeatherRules & { key?: string; actor: string; siteUrl: string },
): Promise<{ status: 200 | 201; body: WeatherAnswer; mailKeys: string[] }> {
  return db.transaction(async (tx) => {
    const executor = tx as unknown as Database;
    const window = Array.from({ length: rules.windowDays + 1 }, (_, index) => addDays(input.date, index));
    await tx.execute(
      sql`select ${sql.join(
        [`weather-day:${input.date}`, ...window.map((date) => `booking-date:${date}`)].map((name) => sql`pg_advisory_xact_lock(hashtext(${name}))`),
        sql`, `,
      )}`,
    );
    const keyHash = key ? hashIdempotencyKey(key) : null;
    if (keyHash) {
      const [earlier] = await tx.select().from(weatherDays).where(eq(weatherDays.idempotencyKeyHash, keyHash));
      if (earlier) {
        if (earlier.date !== input.date || earlier.regionsKey !== regionsKey(input.regions)) throw conflict(IDEMPOTENCY_MESSAGES.reusedKey);
        return { status: 201, body: await replayed(executor, earlier.id, earlier.date, earlier.result as StoredResult), mailKeys: [] };
      }
    }
    const existing = await tx.select({ regions: weatherDays.regions }).from(weatherDays).where(eq(weatherDays.date, input.date));
    if (existing.some((row) => overlaps(row.regions, input.regions))) throw conflict(WEATHER_MESSAGES.already(input.date));

    const planned = await plan(executor, input, rules, true);
    const { moves, unplaced } = input.moves ? edited(input, planned) : planned;
    const [row] = await tx
      .insert(weatherDays)
      .values({
        date: input.date,
        regions: input.regions,
        regionsKey: regionsKey(input.regions),
        idempotencyKeyHash: keyHash,
        result: { moves: [], unplaced: [] },
        createdBy: actor,
        createdAt: rules.now,
      })
      .returning({ id: weatherDays.id });
    const mailKeys = await makeMoves(tx, row!.id, moves, { ...rules, actor, siteUrl });
    const ended = await endCrewLinks(tx, input, moves, rules.now);
    const result = { moves, unplaced };
    // Kept without the customers' names (they stay in bookings only, where erasure reaches them).
    const stored: StoredResult = { moves: moves.map(({ businessName: _name, ...move }) => move), unplaced };
    await tx.update(weatherDays).set({ result: stored }).where(eq(weatherDays.id, row!.id));
    await writeChannelLog(executor, {
      channel: 'admin',
      action: 'weather_day_confirmed',
      entityType: 'weather_day',
      entityId: String(row!.id),
      userId: actor,
      details:
        `Weather day ${input.date}${input.regions.length ? ` (${input.regions.join(', ')})` : ' (every region)'}: ` +
        `${moves.length} booking(s) moved, ${unplaced.length} left for staff, ${ended} crew link(s) ended`,
      metadata: { date: input.date, regions: input.regions, moved: moves.map((move) => move.bookingId), unplaced: unplaced.map((item) => item.bookingId) },
    });
    return { status: 201, body: { id: row!.id, date: input.date, ...result }, mailKeys };
  });
}

type StoredResult = { moves: Omit<WeatherMove, 'businessName'>[]; unplaced: Unplaced[] };

/** The first answer again, the names read from the bookings as they are now. */
async function replayed(db: Database, id: number, date: string, result: StoredResult): Promise<WeatherAnswer> {
  const ids = result.moves.map((move) => move.bookingId);
  const names = new Map(
    ids.length
      ? (await db.select({ id: bookings.id, name: displayName }).from(bookings).where(inArray(bookings.id, ids))).map((row) => [row.id, row.name])
      : [],
  );
  const moves = result.moves.map((move) => ({ bookingId: move.bookingId, businessName: names.get(move.bookingId) ?? '', region: move.region, from: move.from, to: move.to }));
  return { id, date, moves, unplaced: result.unplaced };
}

/** Staff's edited moves: each must be a booking of the day; the day's others stay, listed for staff. */
function edited(input: WeatherInput, planned: { candidates: WeatherCandidate[] }): { moves: WeatherMove[]; unplaced: Unplaced[] } {
  const byId = new Map(planned.candidates.map((candidate) => [candidate.bookingId, candidate]));
  const moves = input.moves!.map(({ bookingId, to }) => {
    const candidate = byId.get(bookingId);
    if (!candidate) throw conflict(WEATHER_MESSAGES.notOnDay(bookingId));
    return { bookingId, businessName: candidate.businessName, region: candidate.region, from: input.date, to };
  });
  const moved = new Set(moves.map((move) => move.bookingId));
  const unplaced = planned.candidates
    .filter((candidate) => !moved.has(candidate.bookingId))
    .map((candidate) => ({ bookingId: candidate.bookingId, reason: 'Left on the day by staff.' }));
  return { moves, unplaced };
}

async function makeMoves(
  tx: Transaction,
  weatherDayId: number,
  moves: readonly WeatherMove[],
  rules: WeatherRules & { actor: string; siteUrl: string },
): Promise<string[]> {
  const mailKeys: string[] = [];
  for (const move of moves) {
    const token = newRescheduleToken();
    const chooseUrl = rescheduleUrl(rules.siteUrl, token.token);
    const result = await moveBookingToDay(tx, move.bookingId, move.to, {
      now: rules.now,
      capacity: rules.capacity,
      siteUrl: rules.siteUrl,
      actor: rules.actor,
      cause: 'weather',
      email: (booking, sequence, invite) => installationWeatherMovedEmail(booking, sequence, invite, { previousDate: move.from, chooseUrl }),
    });
    await tx.insert(rescheduleLinks).values({ tokenHash: token.hash, bookingId: move.bookingId, weatherDayId, createdAt: rules.now });
    if (result.mailKey) mailKeys.push(result.mailKey);
  }
  return mailKeys;
}

/**
 * The rain day's crew links end: every link of the day when the whole day is rained off; for some
 * regions, the links of the workers whose every assigned stop that day was moved (a worker with
 * stops elsewhere keeps the link, which no longer shows the moved ones).
 */
async function endCrewLinks(tx: Transaction, input: WeatherInput, moves: readonly WeatherMove[], now: Date): Promise<number> {
  const executor = tx as unknown as Database;
  if (input.regions.length === 0) return endDayCrewLinks(executor, input.date, now);
  const moved = new Set(moves.map((move) => move.bookingId));
  const assigned = await tx
    .select({ workerId: crewAssignments.workerId, bookingId: crewAssignments.bookingId })
    .from(crewAssignments)
    .where(eq(crewAssignments.day, input.date));
  const keeps = new Set(assigned.filter((row) => !moved.has(row.bookingId)).map((row) => row.workerId));
  const workers = [...new Set(assigned.filter((row) => moved.has(row.bookingId)).map((row) => row.workerId))].filter((id) => !keeps.has(id));
  return endDayCrewLinks(executor, input.date, now, workers);
}
