import { beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  adminSessions,
  adminTotpUses,
  bookings,
  channelLogs,
  emailOutbox,
  geocodeCache,
  idempotencyKeys,
  rateLimits,
  stripeEvents,
  uploadedFiles,
} from '../../db/schema.ts';
import { silentLogger } from '../../src/server/app/logger.ts';
import { queueEmail } from '../../src/server/providers/email-outbox.ts';
import { createMailer } from '../../src/server/providers/mailer.ts';
import { runMaintenance, type MaintenanceDeps } from '../../src/server/services/jobs/maintenance.ts';
import { createTestContext } from '../setup/test-app.ts';
import { insertBrandFile } from '../fixtures/booking-files.ts';
import { staffUser } from '../setup/admin.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The same deps, but SendGrid always answers 503: every delivery attempt fails. */
const failingDeps: MaintenanceDeps = {
  ...ctx.deps,
  mailer: createMailer({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.fake' }, silentLogger, async () => new Response('down', { status: 503 })),
};

async function outboxRow(id: number) {
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  return row!;
}

async function queueOne(to = 'amira@northernroasters.co.uk') {
  await queueEmail(db, { to, subject: 'Your enquiry', text: 'Hello', kind: 'enquiry-acknowledgement' });
  const [row] = await db.select({ id: emailOutbox.id }).from(emailOutbox).orderBy(sql`${emailOutbox.id} desc`).limit(1);
  return row!.id;
}

async function insertUpload(fileName: string, createdAt: Date, bookingId: number | null = null) {
  await ctx.deps.files.put(fileName, new Uint8Array([137, 80, 78, 71]), 'image/png');
  await insertBrandFile(db, { fileName, originalName: 'logo.png', fileSize: 4, mimeType: 'image/png', storage: 'disk', createdAt }, bookingId);
}

async function insertBooking() {
  const [row] = await db
    .insert(bookings)
    .values({
      firstName: 'Amira',
      lastName: 'Khan',
      email: 'amira@northernroasters.co.uk',
      phone: '0161 496 0000',
      quantity: 10,
      locationAddress: 'Piccadilly Gardens, Manchester',
      workType: 'night',
      preferredDate: '2027-07-14',
      totalPricePence: 79_900,
    })
    .returning({ id: bookings.id });
  return row!.id;
}

beforeEach(async () => {
  for (const table of [emailOutbox, rateLimits, uploadedFiles, bookings, geocodeCache, idempotencyKeys, stripeEvents, channelLogs]) {
    await db.delete(table);
  }
});

describe('runMaintenance: e-mail', () => {
  it('retries failed mail with a growing backoff and gives up after 5 attempts', async () => {
    const id = await queueOne();

    let result = await runMaintenance(failingDeps, T0);
    expect(result.counts).toMatchObject({ emailRetried: 0, emailSent: 0, emailFailed: 1 });
    expect(await outboxRow(id)).toMatchObject({ status: 'failed', attempts: 1, lastAttemptAt: T0 });

    // After attempt 1 the next waits 10 minutes.
    result = await runMaintenance(failingDeps, at(9 * MINUTE));
    expect(result.counts).toMatchObject({ emailRetried: 0, emailFailed: 0 });
    expect(await outboxRow(id)).toMatchObject({ status: 'failed', attempts: 1 });

    let now = at(10 * MINUTE);
    result = await runMaintenance(failingDeps, now);
    expect(result.counts).toMatchObject({ emailRetried: 1, emailFailed: 1 });
    expect(await outboxRow(id)).toMatchObject({ status: 'failed', attempts: 2, lastAttemptAt: now });

    // Then 20, 40 and 80 minutes; a minute early is too early each time.
    for (const [wait, attempts] of [
      [20, 3],
      [40, 4],
      [80, 5],
    ] as const) {
      result = await runMaintenance(failingDeps, new Date(now.getTime() + (wait - 1) * MINUTE));
      expect(result.counts.emailRetried).toBe(0);
      now = new Date(now.getTime() + wait * MINUTE);
      result = await runMaintenance(failingDeps, now);
      expect(result.counts).toMatchObject({ emailRetried: 1, emailFailed: 1 });
      expect(await outboxRow(id)).toMatchObject({ status: 'failed', attempts });
    }

    // Five attempts: no more, however long it waits.
    result = await runMaintenance(failingDeps, new Date(now.getTime() + 30 * DAY));
    expect(result.counts).toMatchObject({ emailRetried: 0, emailSent: 0, emailFailed: 0 });
    expect(await outboxRow(id)).toMatchObject({ status: 'failed', attempts: 5, lastAttemptAt: now });
  });

  it('delivers a retried e-mail once the transport works again', async () => {
    const id = await queueOne();
    await runMaintenance(failingDeps, T0);
    const result = await runMaintenance(ctx.deps, at(10 * MINUTE));
    expect(result.counts).toMatchObject({ emailRetried: 1, emailSent: 1, emailFailed: 0 });
    expect(await outboxRow(id)).toMatchObject({ status: 'logged', attempts: 2, lastAttemptAt: at(10 * MINUTE) });
  });

  it('requeues a row stuck in sending for over 15 minutes, leaves a recent one, fails one out of attempts', async () => {
    const rows = await db
      .insert(emailOutbox)
      .values([
        { kind: 'k', to: 'a@northernroasters.co.uk', subject: 's', text: 't', status: 'sending', attempts: 1, lastAttemptAt: at(-16 * MINUTE) },
        { kind: 'k', to: 'b@northernroasters.co.uk', subject: 's', text: 't', status: 'sending', attempts: 1, lastAttemptAt: at(-14 * MINUTE) },
        { kind: 'k', to: 'c@northernroasters.co.uk', subject: 's', text: 't', status: 'sending', attempts: 5, lastAttemptAt: at(-HOUR) },
      ])
      .returning({ id: emailOutbox.id });
    const [stuck, recent, exhausted] = rows.map((row) => row.id) as [number, number, number];

    const result = await runMaintenance(ctx.deps, T0);
    expect(result.counts).toMatchObject({ emailUnstuck: 2, emailSent: 1, emailFailed: 0 });
    expect(await outboxRow(stuck)).toMatchObject({ status: 'logged', attempts: 2, lastAttemptAt: T0 });
    expect(await outboxRow(recent)).toMatchObject({ status: 'sending', attempts: 1 });
    expect(await outboxRow(exhausted)).toMatchObject({ status: 'failed', attempts: 5, error: 'Delivery did not finish' });
  });
});

describe('runMaintenance: pruning', () => {
  it('prunes rate-limit windows older than a day and keeps fresh ones', async () => {
    await db.insert(rateLimits).values([
      { key: 'pageview:old', windowStart: at(-DAY - MINUTE), count: 3 },
      { key: 'pageview:fresh', windowStart: at(-HOUR), count: 1 },
    ]);
    const result = await runMaintenance(ctx.deps, T0);
    expect(result.counts.rateLimitsPruned).toBe(1);
    expect((await db.select().from(rateLimits)).map((row) => row.key)).toEqual(['pageview:fresh']);
  });

  it('deletes unclaimed uploads older than 24 hours from storage and the database, keeps claimed and fresh ones', async () => {
    const bookingId = await insertBooking();
    await insertUpload('old-unclaimed.png', at(-25 * HOUR));
    await insertUpload('old-claimed.png', at(-25 * HOUR), bookingId);
    await insertUpload('fresh-unclaimed.png', at(-23 * HOUR));

    const result = await runMaintenance(ctx.deps, T0);
    expect(result.counts.uploadsDeleted).toBe(1);
    expect(await ctx.deps.files.get('old-unclaimed.png')).toBeNull();
    expect(await ctx.deps.files.get('old-claimed.png')).not.toBeNull();
    expect(await ctx.deps.files.get('fresh-unclaimed.png')).not.toBeNull();
    const names = (await db.select().from(uploadedFiles).orderBy(uploadedFiles.fileName)).map((row) => row.fileName);
    expect(names).toEqual(['fresh-unclaimed.png', 'old-claimed.png']);
  });

  it('keeps an upload whose stored file could not be deleted, for the next run', async () => {
    await insertUpload('stubborn.png', at(-2 * DAY));
    const deps: MaintenanceDeps = {
      ...ctx.deps,
      files: { ...ctx.deps.files, kind: 'disk', delete: async () => Promise.reject(new Error('store unavailable')) },
    };
    expect((await runMaintenance(deps, T0)).counts.uploadsDeleted).toBe(0);
    expect(await db.select().from(uploadedFiles)).toHaveLength(1);
    expect((await runMaintenance(ctx.deps, T0)).counts.uploadsDeleted).toBe(1);
    expect(await db.select().from(uploadedFiles)).toHaveLength(0);
  });

  it('returns every count, logs them once, and a second run finds nothing left to do', async () => {
    await queueOne();
    await db.insert(rateLimits).values({ key: 'admin-login:x', windowStart: at(-2 * DAY), count: 1 });
    await db.insert(geocodeCache).values([
      { key: 'old', result: {}, createdAt: at(-31 * DAY) },
      { key: 'fresh', result: {}, createdAt: at(-29 * DAY) },
    ]);
    await db.insert(idempotencyKeys).values([
      { scope: 'bookings', key: 'old', requestHash: 'h', createdAt: at(-8 * DAY) },
      { scope: 'bookings', key: 'fresh', requestHash: 'h', createdAt: at(-6 * DAY) },
    ]);
    await db.insert(stripeEvents).values([
      { id: 'evt_old', type: 'payment_intent.succeeded', receivedAt: at(-91 * DAY) },
      { id: 'evt_fresh', type: 'payment_intent.succeeded', receivedAt: at(-89 * DAY) },
    ]);
    await insertUpload('stale.png', at(-3 * DAY));
    await db.insert(adminSessions).values([
      { tokenHash: 'expired', expiresAt: at(-MINUTE), lastSeenAt: at(-40 * MINUTE) },
      { tokenHash: 'live', expiresAt: at(HOUR), lastSeenAt: at(-MINUTE) },
    ]);
    const step = Math.floor(T0.getTime() / 30_000);
    const { id: userId } = await staffUser(ctx, 'owner');
    await db.insert(adminTotpUses).values([
      { userId, step: step - 10, usedAt: at(-5 * MINUTE) },
      { userId, step, usedAt: T0 },
    ]);

    const first = await runMaintenance(ctx.deps, T0);
    expect(first).toEqual({
      counts: {
        emailRetried: 0,
        emailUnstuck: 0,
        emailSent: 1,
        emailFailed: 0,
        rateLimitsPruned: 1,
        geocodeCachePruned: 1,
        idempotencyKeysPruned: 1,
        uploadsDeleted: 1,
        stripeEventsPruned: 1,
        retentionDeleted: 0,
        remindersSent: 0,
        proofRemindersSent: 0,
        projectsArchived: 0,
        photoGrantsPruned: 0,
        adminSessionsPruned: 1,
        usedSignInCodesPruned: 1,
        lapsedHoldsCancelled: 0,
        uploadSessionsPruned: 0,
        clientHashKeysPruned: 0,
        usedChallengesPruned: 0,
        knownDevicesPruned: 0,
      },
      failedSteps: [],
    });
    expect((await db.select().from(geocodeCache)).map((row) => row.key)).toEqual(['fresh']);
    expect((await db.select().from(idempotencyKeys)).map((row) => row.key)).toEqual(['fresh']);
    expect((await db.select().from(stripeEvents)).map((row) => row.id)).toEqual(['evt_fresh']);
    expect((await db.select().from(adminSessions)).map((row) => row.tokenHash)).toEqual(['live']);
    expect((await db.select().from(adminTotpUses)).map((row) => row.step)).toEqual([step]);

    const logs = await db.select().from(channelLogs).where(eq(channelLogs.action, 'maintenance'));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ channel: 'database', severity: 'info', metadata: { ...first.counts, failedSteps: [] } });
    expect(logs[0]!.details).toContain('uploadsDeleted 1');

    const second = await runMaintenance(ctx.deps, T0);
    expect(Object.values(second.counts).every((count) => count === 0)).toBe(true);
  });

  it('two overlapping runs delete each row once', async () => {
    await db.insert(rateLimits).values([
      { key: 'a', windowStart: at(-2 * DAY), count: 1 },
      { key: 'b', windowStart: at(-3 * DAY), count: 1 },
    ]);
    await insertUpload('overlap.png', at(-2 * DAY));
    await queueOne();
    const [a, b] = await Promise.all([runMaintenance(ctx.deps, T0), runMaintenance(ctx.deps, T0)]);
    expect(a.failedSteps).toEqual([]);
    expect(b.failedSteps).toEqual([]);
    expect(a.counts.rateLimitsPruned + b.counts.rateLimitsPruned).toBe(2);
    expect(a.counts.uploadsDeleted + b.counts.uploadsDeleted).toBe(1);
    expect(a.counts.emailSent + b.counts.emailSent).toBe(1);
  });
});
