import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, emailOutbox } from '../../db/schema.ts';
import { createApp } from '../../src/server/api/app.ts';
import type { Database } from '../../db/client.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';
import { STUCK_SENDING_MINUTES } from '../../src/server/providers/email-outbox.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';
import { DATABASE_UNAVAILABLE } from '../../src/server/api/middleware/errors.ts';

// Faults injected into a real app on a real database: what the customer sees, and what is left.
const ctx = await createTestContext();

/** The database, except that the connection drops once `after` statements have run. */
function droppingDatabase(db: Database, after: number): Database {
  let statements = 0;
  const fail = () => {
    statements += 1;
    if (statements > after) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
  };
  const wrap = (target: object): object =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (property === 'transaction') {
          return (work: (tx: Database) => Promise<unknown>) =>
            (value as (fn: (tx: Database) => Promise<unknown>) => Promise<unknown>).call(object, (tx) => work(wrap(tx) as Database));
        }
        if (property === 'execute' || property === 'insert' || property === 'select' || property === 'update' || property === 'delete') {
          return (...args: unknown[]) => {
            fail();
            return (value as (...a: unknown[]) => unknown).apply(object, args);
          };
        }
        return value;
      },
    });
  return wrap(db) as Database;
}

describe('faults', () => {
  it('the database dropping mid-booking answers 503 JSON and leaves no partial rows', async () => {
    const before = await ctx.deps.db.select({ id: bookings.id }).from(bookings);
    // Let the rate limiter and the first statements of the transaction run, then drop.
    for (const after of [1, 3, 5]) {
      const app = createApp({ ...ctx.deps, db: droppingDatabase(ctx.deps.db, after) });
      const response = await app.request('/api/bookings', jsonRequest(bookingPayload()), freshClient());
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect((await response.json()).error).toBe(DATABASE_UNAVAILABLE);
    }
    expect(await ctx.deps.db.select({ id: bookings.id }).from(bookings)).toEqual(before);
    expect(await ctx.deps.db.select().from(emailOutbox)).toEqual([]);
  });

  it('a process that dies between the booking commit and its e-mail still gets the e-mail out', async () => {
    // The mailer "dies" after the commit: the confirmation stays in the outbox as the request
    // wrote it, claimed for a delivery that never happens.
    const killed = async () => {
      throw new Error('process killed');
    };
    const dying = { ...ctx.deps.mailer, deliverQueued: killed, deliverClaimed: killed };
    const app = createApp({ ...ctx.deps, mailer: dying });
    const response = await app.request('/api/bookings', jsonRequest(bookingPayload({ email: 'owen@harbourbakes.co.uk' })), freshClient());
    expect(response.status).toBe(201);
    const [claimed] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, 'owen@harbourbakes.co.uk'));
    expect(claimed?.status).toBe('sending');

    // The first hourly run (a fresh process) once the claim is stale delivers it, and only once.
    const later = new Date(ctx.deps.now().getTime() + (STUCK_SENDING_MINUTES + 1) * 60_000);
    await runMaintenance(ctx.deps, later);
    await runMaintenance(ctx.deps, later);
    const rows = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, 'owen@harbourbakes.co.uk'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('logged');
  });
});
