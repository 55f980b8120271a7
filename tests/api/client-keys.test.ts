import { createHash, createHmac, randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { asc, eq, like } from 'drizzle-orm';
import { channelLogs, clientHashKeys, idempotencyKeys, rateLimits } from '../../db/schema.ts';
import { addDays } from '../../src/domain/format.ts';
import { currentClientHashKey, pruneClientHashKeys } from '../../src/server/services/limits/client-hash-keys.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';
import { openDatabase } from '../../db/client.ts';
import { migrateDatabase, MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';
import { bookingPayload } from '../fixtures/bookings.ts';

// Client addresses in rate-limit keys, Idempotency-Key rows and Logs are an HMAC keyed with a
// random secret per UTC day (services/limits/client-hash-keys.ts), never a hash anyone can recompute.
const ctx = await createTestContext();
const db = ctx.deps.db;

const from = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } });
const post = (body: unknown, client: ReturnType<typeof from>, headers: Record<string, string> = {}) =>
  ctx.app.request('/api/bookings', jsonRequest(body, { headers }), client);

/** The client part of the create-booking counters stored in this window. */
async function bookingCounters() {
  const rows = await db.select().from(rateLimits).where(like(rateLimits.key, 'create-booking:%')).orderBy(asc(rateLimits.key));
  return rows.map((row) => ({ client: row.key.slice('create-booking:'.length), count: row.count, windowStart: row.windowStart }));
}

async function storedKey(day: string): Promise<Buffer> {
  const [row] = await db.select().from(clientHashKeys).where(eq(clientHashKeys.day, day));
  expect(row, `a key for ${day}`).toBeDefined();
  return Buffer.from(row!.key, 'base64url');
}

const hmac = (secret: Buffer, text: string) => createHmac('sha256', secret).update(text).digest('base64url').slice(0, 22);

let date = 0;
const nextDate = () => addDays('2027-09-01', (date += 1));

describe('client keys are keyed hashes with a secret per UTC day', () => {
  it('stores neither the address nor its unkeyed SHA-256, only an HMAC under the day’s random key', async () => {
    await db.delete(rateLimits);
    ctx.setNow('2026-11-22T10:00:00Z');
    expect((await post({}, from('192.0.2.1'))).status).toBe(400);

    const [counter] = await bookingCounters();
    const unkeyed = createHash('sha256').update('192.0.2.1').digest('base64url');
    expect(counter!.client).not.toContain('192.0.2.1');
    expect(unkeyed.startsWith(counter!.client)).toBe(false);
    expect(counter!.client).not.toBe(createHash('sha256').update('192.0.2.1').digest('hex').slice(0, 22));
    // It is the HMAC under the stored key, and under any other key it is something else.
    const key = await storedKey('2026-11-22');
    expect(key).toHaveLength(32);
    expect(counter!.client).toBe(hmac(key, '192.0.2.1'));
    expect(counter!.client).not.toBe(hmac(randomBytes(32), '192.0.2.1'));
  });

  it('keeps one counter for one client through the day, and another for another client', async () => {
    await db.delete(rateLimits);
    ctx.setNow('2026-11-22T11:00:00Z');
    await post({}, from('192.0.2.1'));
    await post({}, from('192.0.2.1'));
    await post({}, from('192.0.2.2'));
    ctx.setNow('2026-11-22T11:40:00Z');
    await post({}, from('192.0.2.1'));

    const counters = await bookingCounters();
    expect(counters).toHaveLength(2);
    const key = await storedKey('2026-11-22');
    const mine = counters.find((row) => row.client === hmac(key, '192.0.2.1'));
    expect(mine?.count).toBe(3);
    expect(counters.find((row) => row.client === hmac(key, '192.0.2.2'))?.count).toBe(1);
  });

  it('gives the same client a different key on another day, from a different random key', async () => {
    await db.delete(rateLimits);
    ctx.setNow('2026-11-23T09:00:00Z');
    await post({}, from('192.0.2.1'));
    ctx.setNow('2026-11-24T09:00:00Z');
    await post({}, from('192.0.2.1'));

    const [first, second] = [await storedKey('2026-11-23'), await storedKey('2026-11-24')];
    expect(first.equals(second)).toBe(false);
    const clients = (await bookingCounters()).map((row) => row.client);
    expect(clients).toHaveLength(2);
    expect(new Set(clients)).toEqual(new Set([hmac(first, '192.0.2.1'), hmac(second, '192.0.2.1')]));
  });

  it('uses the key another instance made first for the day, never one of its own', async () => {
    const theirs = randomBytes(32);
    await db.insert(clientHashKeys).values({ day: '2026-12-01', key: theirs.toString('base64url') });
    const mine = await currentClientHashKey(db, new Date('2026-12-01T06:00:00Z'));
    expect(mine.equals(theirs)).toBe(true);
    expect(await db.select().from(clientHashKeys).where(eq(clientHashKeys.day, '2026-12-01'))).toHaveLength(1);
  });

  it('makes one key when several requests need a new day’s key at once', async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => currentClientHashKey(db, new Date('2026-12-05T00:00:01Z'))));
    expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(1);
    expect(keys[0]!.equals(await storedKey('2026-12-05'))).toBe(true);
  });
});

describe('the Logs keep the same keyed hash', () => {
  it('a refused sign-in is logged under the day’s keyed hash, and under another on the next day', async () => {
    const login = () => ctx.app.request('/api/admin/login', jsonRequest({ password: 'not the password' }), from('192.0.2.1'));
    ctx.setNow('2026-11-22T15:00:00Z');
    expect((await login()).status).toBe(401);
    ctx.setNow('2026-11-23T15:00:00Z');
    expect((await login()).status).toBe(401);
    const logged = await db
      .select({ ipAddress: channelLogs.ipAddress })
      .from(channelLogs)
      .where(eq(channelLogs.action, 'login_failed'))
      .orderBy(asc(channelLogs.id));
    expect(logged.map((row) => row.ipAddress)).toEqual([
      hmac(await storedKey('2026-11-22'), '192.0.2.1'),
      hmac(await storedKey('2026-11-23'), '192.0.2.1'),
    ]);
  });
});

describe('an Idempotency-Key replays to its own client under the keyed hash', () => {
  it('stores the keyed hash, replays to the same client and refuses another', async () => {
    ctx.setNow('2026-11-25T10:00:00Z');
    const payload = bookingPayload({ preferredDate: nextDate() });
    const created = await post(payload, from('192.0.2.1'), { 'Idempotency-Key': 'same-day-key' });
    expect(created.status).toBe(201);
    const [row] = await db.select().from(idempotencyKeys);
    expect(row!.clientKey).toBe(hmac(await storedKey('2026-11-25'), '192.0.2.1'));
    expect(row!.clientKey).not.toBe(createHash('sha256').update('192.0.2.1').digest('base64url').slice(0, 22));

    const replay = await post(payload, from('192.0.2.1'), { 'Idempotency-Key': 'same-day-key' });
    expect(replay.status).toBe(200);
    expect((await replay.json()).id).toBe((await created.json()).id);
    const other = await post(payload, from('192.0.2.2'), { 'Idempotency-Key': 'same-day-key' });
    expect(other.status).toBe(409);
  });

  it('replays a key made just before midnight (UTC) to the same client just after it, and to nobody else', async () => {
    ctx.setNow('2026-11-26T23:59:58Z');
    const payload = bookingPayload({ preferredDate: nextDate() });
    const created = await post(payload, from('192.0.2.7'), { 'Idempotency-Key': 'midnight-key' });
    expect(created.status).toBe(201);

    ctx.setNow('2026-11-27T00:00:03Z');
    const replay = await post(payload, from('192.0.2.7'), { 'Idempotency-Key': 'midnight-key' });
    expect(replay.status).toBe(200);
    expect((await replay.json()).id).toBe((await created.json()).id);
    expect((await post(payload, from('192.0.2.8'), { 'Idempotency-Key': 'midnight-key' })).status).toBe(409);
  });
});

describe('retention of the keys', () => {
  it('the hourly job deletes a key once its day and the next are over, keeping today’s and yesterday’s', async () => {
    await db.delete(clientHashKeys);
    for (const day of ['2026-11-28', '2026-11-29', '2026-11-30']) {
      await db.insert(clientHashKeys).values({ day, key: randomBytes(32).toString('base64url') });
    }
    const now = new Date('2026-11-30T00:30:00Z');
    const result = await runMaintenance(ctx.deps, now);
    expect(result.failedSteps).toEqual([]);
    expect(result.counts.clientHashKeysPruned).toBe(1);
    const left = (await db.select().from(clientHashKeys).orderBy(asc(clientHashKeys.day))).map((row) => row.day);
    expect(left).toEqual(['2026-11-29', '2026-11-30']);
    expect(await pruneClientHashKeys(db, now)).toBe(0);
  });

  it('after its key is deleted, a key from that day no longer replays even to the client that made it', async () => {
    ctx.setNow('2026-12-10T12:00:00Z');
    const payload = bookingPayload({ preferredDate: nextDate() });
    expect((await post(payload, from('192.0.2.9'), { 'Idempotency-Key': 'old-key' })).status).toBe(201);
    ctx.setNow('2026-12-12T12:00:00Z');
    await pruneClientHashKeys(db, ctx.deps.now());
    expect(await db.select().from(clientHashKeys).where(eq(clientHashKeys.day, '2026-12-10'))).toHaveLength(0);
    expect((await post(payload, from('192.0.2.9'), { 'Idempotency-Key': 'old-key' })).status).toBe(409);
  });
});

describe('migration 0024', () => {
  it('clears the unkeyed address hashes the Logs and Idempotency-Key rows held before it', async () => {
    // The migrations up to 0023 in a folder of their own, then the rest on the same database.
    const folder = await mkdtemp(path.join(os.tmpdir(), 'cp-migrations-'));
    const handle = await openDatabase();
    try {
      await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
      const journalFile = path.join(folder, 'meta', '_journal.json');
      const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
      const upTo = journal.entries.findIndex((entry) => entry.tag.startsWith('0024_'));
      expect(upTo).toBeGreaterThan(0);
      await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
      await migrateDatabase(handle, folder);

      const unkeyed = createHash('sha256').update('192.0.2.1').digest('base64url').slice(0, 22);
      await handle.db.insert(channelLogs).values({ channel: 'admin', action: 'login_failed', ipAddress: unkeyed, details: 'Admin sign-in refused: wrong password' });
      await handle.db.insert(idempotencyKeys).values({ scope: 'create-booking', key: 'k', requestHash: 'h', clientKey: unkeyed });
      // A staff resend's key names who resent, not an address: its replay keeps working.
      await handle.db.insert(idempotencyKeys).values({ scope: 'resend-message', key: 'r', requestHash: 'h', clientKey: 'admin:5898dad4' });
      await migrateDatabase(handle);

      expect((await handle.db.select().from(channelLogs)).map((row) => row.ipAddress)).toEqual([null]);
      const keys = await handle.db.select().from(idempotencyKeys).orderBy(idempotencyKeys.scope);
      expect(keys.map((row) => [row.scope, row.clientKey])).toEqual([
        ['create-booking', null],
        ['resend-message', 'admin:5898dad4'],
      ]);
      expect(await handle.db.select().from(clientHashKeys)).toEqual([]);
    } finally {
      await handle.close();
      await rm(folder, { recursive: true, force: true });
    }
    // Migrates a new database from nothing, twice: seconds alone, past 20 s on a busy CI machine.
  }, 120_000);
});
