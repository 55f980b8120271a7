import { describe, expect, it } from 'vitest';
import { uploadedFiles } from '../../db/schema.ts';
import { createApp } from '../../src/server/api/app.ts';
import { currentClientHashKey } from '../../src/server/services/limits/client-hash-keys.ts';
import type { BackgroundTasks } from '../../src/server/app/background.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { recordingDatabase } from '../setup/recording-database.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

// Every SQL statement of a booking is a round trip made while the date's lock is held (on
// PGlite, while the whole database waits), so their number is most of a booking's cost under
// load. These budgets are today's counts. Raising one needs a reason, written in the commit that
// raises it; lowering one after a saving is welcome.
// The site-wide ceiling's upsert (rate-limit.ts admitToSiteCeiling) runs before the date's lock is taken.
const BOOKING_STATEMENTS = 6; // rate limit, site-wide ceiling, date lock, date state, booking, one combined write (e-mails claimed in it)
const BOOKING_WITH_KEY_AND_FILE_STATEMENTS = 10; // + the key's claim, the Uploadcare check, the files' lock and the check of who may use them
const DELIVERY_STATEMENTS = 1; // after the answer: mark the e-mail sent with its email_sent log (it was written claimed)

const ctx = await createTestContext();

/** Holds after-answer work until the test runs it, so each phase is counted on its own. */
function heldBackground(): BackgroundTasks & { runHeld(): Promise<void> } {
  const held: Array<() => Promise<unknown>> = [];
  return {
    run: async (task) => void held.push(task),
    idle: async () => undefined,
    async runHeld() {
      for (const task of held.splice(0)) await task();
    },
  };
}

async function countBooking(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const { db, statements } = recordingDatabase(ctx.deps.db);
  // The day's client-hash key is read once per instance and day (client-hash-keys.ts), not per
  // booking: fetched before counting, as a running instance already holds it.
  await currentClientHashKey(db, ctx.deps.now());
  statements.splice(0);
  const background = heldBackground();
  const app = createApp({ ...ctx.deps, db, background });
  const response = await app.request('/api/bookings', jsonRequest(body, { headers }), freshClient());
  expect(response.status).toBe(201);
  const beforeAnswer = statements.length;
  await background.runHeld();
  return { beforeAnswer, afterAnswer: statements.length - beforeAnswer };
}

describe('SQL statements per booking', () => {
  it(`a booking costs at most ${BOOKING_STATEMENTS} statements before its answer and ${DELIVERY_STATEMENTS} after`, async () => {
    const counts = await countBooking(bookingPayload({ preferredDate: '2027-08-03' }));
    expect(counts.beforeAnswer).toBeLessThanOrEqual(BOOKING_STATEMENTS);
    expect(counts.afterAnswer).toBeLessThanOrEqual(DELIVERY_STATEMENTS);
  });

  it(`with an Idempotency-Key and an uploaded file, at most ${BOOKING_WITH_KEY_AND_FILE_STATEMENTS}`, async () => {
    const fileName = '5e2a7b1c-0000-4000-8000-000000000001.png';
    await ctx.deps.db.insert(uploadedFiles).values({ fileName, originalName: 'Logo.png', fileSize: 1234, mimeType: 'image/png', storage: 'disk' });
    const counts = await countBooking(
      bookingPayload({
        preferredDate: '2027-08-04',
        uploadedFiles: [{ filename: fileName, originalName: 'Logo.png', fileSize: 1234, mimeType: 'image/png' }],
      }),
      { 'Idempotency-Key': 'statement-count-0001' },
    );
    expect(counts.beforeAnswer).toBeLessThanOrEqual(BOOKING_WITH_KEY_AND_FILE_STATEMENTS);
    expect(counts.afterAnswer).toBeLessThanOrEqual(DELIVERY_STATEMENTS);
  });
});
