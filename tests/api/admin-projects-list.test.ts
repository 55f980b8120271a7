import { beforeEach, describe, expect, it } from 'vitest';
import { bookings, photos, progressLogs } from '../../db/schema.ts';
import { listProjectsPage, PROJECT_LIST_MESSAGES } from '../../src/server/services/projects/projects-list.ts';
import { planWithoutSequentialScans, recordingDatabase } from '../setup/recording-database.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext } from '../setup/test-app.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;
// 10:00 in London on Monday 22 November 2027 (GMT), so "today" is 2027-11-22.
const NOW = new Date('2027-11-22T10:00:00Z');
const BASE = new Date('2027-11-01T09:00:00Z');
let cookie: string;

interface Seed {
  firstName?: string;
  email?: string;
  step?: number;
  preferredDate?: string;
  installationDate?: Date | null;
  archived?: boolean;
  isTest?: boolean;
  locationAddress?: string;
  /** Minutes after BASE: bigger is newer. */
  minute?: number;
}

async function insertProject(seed: Seed = {}) {
  const [row] = await db
    .insert(bookings)
    .values({
      firstName: seed.firstName ?? 'Omar',
      lastName: 'Patel',
      email: seed.email ?? 'omar@patelprint.co.uk',
      phone: '0113 496 0000',
      quantity: 5,
      locationAddress: seed.locationAddress ?? 'Briggate, Leeds LS1 6HD',
      postcode: 'LS1',
      workType: 'day',
      preferredDate: seed.preferredDate ?? '2028-07-14',
      installationDate: seed.installationDate ?? null,
      currentStep: seed.step ?? 1,
      totalPricePence: 34_900,
      archived: seed.archived ?? false,
      isTest: seed.isTest ?? false,
      createdAt: new Date(BASE.getTime() + (seed.minute ?? 0) * 60_000),
    })
    .returning();
  return row!;
}

interface Row {
  id: number;
  firstName: string;
  currentStep: number;
  isToday: boolean;
  progressLogs: unknown[];
  photos: unknown[];
}

async function list(query = '') {
  const response = await ctx.app.request(`/api/admin/projects${query}`, adminRequest(cookie));
  const body = (await response.json()) as Row[] & { error?: string; fields?: Record<string, string> };
  return { response, body, total: Number(response.headers.get('X-Total-Count')), next: response.headers.get('X-Next-Cursor') };
}

const ids = (rows: Row[]) => rows.map((row) => row.id);

beforeEach(async () => {
  ctx.setNow(NOW);
  for (const table of [photos, progressLogs, bookings]) await db.delete(table);
  cookie = await adminCookie(ctx);
});

describe('GET /api/admin/projects', () => {
  it('answers 401 without a session', async () => {
    const response = await ctx.app.request('/api/admin/projects');
    expect(response.status).toBe(401);
  });

  it('lists active projects newest first, each with its card data, and leaves archived ones out', async () => {
    const older = await insertProject({ minute: 1 });
    const newer = await insertProject({ minute: 2 });
    await insertProject({ minute: 3, archived: true });

    const { response, body, total, next } = await list('?sort=newest');
    expect(response.status).toBe(200);
    expect(ids(body)).toEqual([newer.id, older.id]);
    expect(total).toBe(2);
    expect(next).toBeNull();
    expect(body[0]).toMatchObject({ currentStep: 1, isToday: false, progressLogs: [], photos: [], photoCount: 0 });
  });

  it("keeps newest booking first strictly, today's installations where their booking falls, marked as today", async () => {
    const plain = await insertProject({ minute: 5 });
    // 23:30 London on the 22nd is still today; 00:30 on the 23rd is not.
    const lateTonight = await insertProject({ minute: 1, installationDate: new Date('2027-11-22T23:30:00Z') });
    const preferredToday = await insertProject({ minute: 2, preferredDate: '2027-11-22' });
    const movedAway = await insertProject({ minute: 3, preferredDate: '2027-11-22', installationDate: new Date('2027-11-23T00:30:00Z') });

    const { body, total } = await list('?sort=newest');
    expect(ids(body)).toEqual([plain.id, movedAway.id, preferredToday.id, lateTonight.id]);
    expect(body.map((row) => row.isToday)).toEqual([false, false, true, true]);
    expect(total).toBe(4);
  });

  it('pages by cursor without repeating or skipping a project', async () => {
    const today = await insertProject({ minute: 0, preferredDate: '2027-11-22' });
    const others = [];
    for (let minute = 1; minute <= 5; minute += 1) others.push(await insertProject({ minute }));

    const first = await list('?sort=newest&limit=2');
    expect(ids(first.body)).toEqual([others[4]!.id, others[3]!.id]);
    expect(first.total).toBe(6);
    const second = await list(`?sort=newest&limit=2&cursor=${first.next}`);
    expect(ids(second.body)).toEqual([others[2]!.id, others[1]!.id]);
    const third = await list(`?sort=newest&limit=2&cursor=${second.next}`);
    expect(ids(third.body)).toEqual([others[0]!.id, today.id]);
    expect(third.body.map((row) => row.isToday)).toEqual([false, true]);
    expect(third.next).toBeNull();
  });

  it('filters by step, by installation day and by search, together', async () => {
    const stepThree = await insertProject({ step: 3, firstName: 'Grace', minute: 1 });
    await insertProject({ step: 2, firstName: 'Grace', minute: 2 });
    const stepThreeOther = await insertProject({ step: 3, firstName: 'Ada', minute: 3, installationDate: new Date('2027-12-01T09:00:00Z') });

    expect(ids((await list('?sort=newest&step=3')).body)).toEqual([stepThreeOther.id, stepThree.id]);
    expect(ids((await list('?sort=newest&step=3&q=grace')).body)).toEqual([stepThree.id]);
    const onDay = await list('?sort=newest&date=2027-12-01');
    expect(ids(onDay.body)).toEqual([stepThreeOther.id]);
    expect(onDay.total).toBe(1);
    expect(ids((await list(`?sort=newest&q=%23${stepThree.id}`)).body)).toEqual([stepThree.id]);
    expect((await list('?sort=newest&step=4')).body).toEqual([]);
  });

  it('counts test bookings on their own', async () => {
    await insertProject({ isTest: true });
    await insertProject({ isTest: true, archived: true });
    await insertProject();
    const { body, total } = await list('?sort=newest&test=true&limit=1');
    expect(total).toBe(1);
    expect(body).toHaveLength(1);
  });

  it.each([
    ['?step=6', 'step', PROJECT_LIST_MESSAGES.step],
    ['?step=two', 'step', PROJECT_LIST_MESSAGES.step],
    ['?date=2027-13-01', 'date', PROJECT_LIST_MESSAGES.date],
    ['?test=maybe', 'test', PROJECT_LIST_MESSAGES.test],
    ['?sort=oldest', 'sort', PROJECT_LIST_MESSAGES.sort],
  ])('refuses %s with a 400 naming the field', async (query, field, message) => {
    const { response, body } = await list(query);
    expect(response.status).toBe(400);
    expect(body.fields).toMatchObject({ [field]: message });
  });

  it('refuses a forged cursor with a 400', async () => {
    const { response } = await list('?sort=newest&cursor=bm90LWEtY3Vyc29y');
    expect(response.status).toBe(400);
  });
});

// At 20 000 bookings a read of every row costs more than the admin's 100 ms; each of the list's
// statements must be one an index can serve.
describe('the Projects list statements', () => {
  it.each([
    ['no filter', { step: null, date: null }, [/bookings_archived_(step_)?created_idx/]],
    ['a step', { step: 3, date: null }, [/bookings_archived_step_created_idx/]],
    ['a day', { step: null, date: '2027-12-01' }, [/bookings_installation_day_idx/]],
  ])('with %s use indexes', async (_name, filters, indexes) => {
    const { db: recording, statements } = recordingDatabase(db);
    await listProjectsPage(recording, { ...filters, sort: 'newest', q: '', testOnly: false, limit: 50, cursor: null }, NOW);
    const listStatements = statements.filter((statement) => /from "bookings"/i.test(statement.sql));
    const plans = await Promise.all(listStatements.map((statement) => planWithoutSequentialScans(db, statement)));
    for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on bookings/);
    const all = plans.join('\n');
    for (const index of indexes) expect(all).toMatch(index);
  });
});

describe('GET /api/admin/projects in the day order (the default)', () => {
  const at = (day: string) => new Date(`${day}T10:00:00Z`);

  it('lists today, then the coming days soonest first, then the unscheduled, then past installations', async () => {
    const unscheduledLater = await insertProject({ minute: 9, preferredDate: '2027-12-20' });
    const nextWeek = await insertProject({ minute: 8, step: 3, installationDate: at('2027-11-29') });
    const past = await insertProject({ minute: 7, step: 4, installationDate: at('2027-11-15') });
    const tomorrow = await insertProject({ minute: 1, step: 3, installationDate: at('2027-11-23') });
    const today = await insertProject({ minute: 2, step: 3, installationDate: at('2027-11-22') });
    const unscheduledSooner = await insertProject({ minute: 6, preferredDate: '2027-11-25' });
    const longAgo = await insertProject({ minute: 5, step: 5, installationDate: at('2027-10-01') });

    const { body, total, next } = await list();
    expect(ids(body)).toEqual([today.id, tomorrow.id, nextWeek.id, unscheduledSooner.id, unscheduledLater.id, past.id, longAgo.id]);
    expect(body.map((row) => row.isToday)).toEqual([true, false, false, false, false, false, false]);
    expect(total).toBe(7);
    expect(next).toBeNull();
  });

  it('pages by cursor in that order without repeating or skipping a project', async () => {
    const made = [];
    for (const day of ['2027-11-24', '2027-11-22', '2027-11-23']) made.push(await insertProject({ step: 3, installationDate: at(day) }));
    const unscheduled = await insertProject({ preferredDate: '2027-11-22' });
    const first = await list('?limit=2');
    expect(ids(first.body)).toEqual([made[1]!.id, made[2]!.id]);
    const second = await list(`?limit=2&cursor=${first.next}`);
    expect(ids(second.body)).toEqual([made[0]!.id, unscheduled.id]);
    expect(second.next).toBeNull();
  });

  it.each(['M4 6AJ', 'm46aj', 'M46AJ', ' m4 6aj '])('finds a full postcode typed as %j', async (typed) => {
    const ancoats = await insertProject({ firstName: 'Rae', locationAddress: 'Cutting Room Square, Manchester M4 6AJ' });
    const second = await insertProject({ firstName: 'Lou', locationAddress: 'Piccadilly, Manchester M1 1RG; 12 Blossom Street, Manchester m46aj' });
    await insertProject({ firstName: 'Kit', locationAddress: 'Oldham Street, Manchester M4 1LE' });
    const { body, total } = await list(`?q=${encodeURIComponent(typed)}`);
    expect(ids(body).sort()).toEqual([ancoats.id, second.id].sort());
    expect(total).toBe(2);
  });
});

describe('the Projects list statements in the day order', () => {
  it('read no table from end to end', async () => {
    const { db: recording, statements } = recordingDatabase(db);
    await listProjectsPage(recording, { sort: 'day', step: null, date: null, q: '', testOnly: false, limit: 50, cursor: null }, NOW);
    const listStatements = statements.filter((statement) => /from "bookings"/i.test(statement.sql));
    const plans = await Promise.all(listStatements.map((statement) => planWithoutSequentialScans(db, statement)));
    for (const plan of plans) expect(plan).not.toMatch(/Seq Scan on bookings/);
  });
});
