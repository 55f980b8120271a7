import { describe, expect, it } from 'vitest';
import { listAdminBookings } from '../../src/server/services/bookings/admin-bookings.ts';
import { listChannelLogs } from '../../src/server/services/messages/channel-logs-query.ts';
import { planWithoutSequentialScans, recordingDatabase } from '../setup/recording-database.ts';
import { createTestContext } from '../setup/test-app.ts';

// The admin's free-text searches (ILIKE '%term%') are served by trigram indexes on one
// expression per table (db/schema.ts). PostgreSQL uses such an index only when the query's
// expression is the indexed one exactly, so an edit to either side would silently bring back a
// read of every row: at years of data, hundreds of milliseconds per keystroke.

const ctx = await createTestContext();

async function searchStatement(run: (db: typeof ctx.deps.db) => Promise<unknown>) {
  const { db, statements } = recordingDatabase(ctx.deps.db);
  await run(db);
  const statement = statements.find((candidate) => /\bilike\b/i.test(candidate.sql));
  expect(statement, 'the search sends an ILIKE').toBeDefined();
  return statement!;
}

describe('admin free-text search', () => {
  it('finds bookings through the trigram index', async () => {
    const statement = await searchStatement((db) => listAdminBookings(db, { q: 'lovelace', archived: null, limit: 50, cursor: null }));
    expect(await planWithoutSequentialScans(ctx.deps.db, statement)).toContain('bookings_search_trgm_idx');
  });

  it('finds log lines through the trigram index', async () => {
    const statement = await searchStatement((db) => listChannelLogs(db, { search: 'mailbox', limit: 50 }));
    expect(await planWithoutSequentialScans(ctx.deps.db, statement)).toContain('channel_logs_search_trgm_idx');
  });
});
