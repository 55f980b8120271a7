import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { testSettings } from '../../src/server/env.ts';
import { consumeRateLimit } from '../../src/server/services/rate-limit.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

// A rate limit's counter commits without waiting for the disk (rate-limit.ts): the first statement
// of most requests costs a fraction of a millisecond instead of a flush of the log. What must
// hold around it: everything else still commits durably, and the setting never outlives the
// counter's own statement.

const ctx = await createTestContext();
const rule = { name: 'commit-test', limit: 5, windowSeconds: 60 };

async function walState() {
  const [row] = rowsOf<{ unflushed: boolean; setting: string }>(
    await ctx.deps.db.execute(
      sql`select pg_current_wal_insert_lsn() > pg_current_wal_flush_lsn() as unflushed, current_setting('synchronous_commit') as setting`,
    ),
  );
  return row!;
}

describe('rate-limit counters and durable commits', () => {
  it('the statement after a counter commits synchronously again, and the counter still counts', async () => {
    const first = await consumeRateLimit(ctx.deps.db, rule, 'client-a', ctx.deps.now());
    expect((await walState()).setting).toBe('on');
    const second = await consumeRateLimit(ctx.deps.db, rule, 'client-a', ctx.deps.now());
    expect([first.count, second.count]).toEqual([1, 2]);
  });

  it("a counter's commit leaves its log in memory; a booking's commit writes it to disk", async () => {
    // Only the embedded database shows this deterministically: it is this file's alone and has no
    // WAL writer flushing in the background. A PostgreSQL server flushes on its own schedule
    // and shares its log with every other test file's database.
    if (testSettings().testDatabaseUrl) return;
    await consumeRateLimit(ctx.deps.db, rule, 'client-b', ctx.deps.now());
    expect((await walState()).unflushed).toBe(true);
    const response = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: '2027-07-14' })), freshClient());
    expect(response.status).toBe(201);
    // The booking's own request counted its client (asynchronously) first; its transaction's
    // commit then flushed everything before it too.
    expect((await walState()).unflushed).toBe(false);
  });
});
