import { describe, expect, it } from 'vitest';
import { bookings, clientHashKeys, rateLimits } from '../../db/schema.ts';
import { currentClientHashKey } from '../../src/server/services/limits/client-hash-keys.ts';
import { seedDatabase } from '../../db/seed.ts';
import { exportDatabase, importDatabase, DUMP_FORMAT, tablesInLoadOrder } from '../../db/dump.ts';
import { createTestContext } from '../setup/test-app.ts';
import { bookingsUsing } from '../fixtures/booking-files.ts';

const source = await createTestContext();
const target = await createTestContext();

describe('database export and import', () => {
  it('loads parents before children', () => {
    const order = tablesInLoadOrder().map((table) => table.name);
    expect(order.indexOf('bookings')).toBeLessThan(order.indexOf('booking_locations'));
    expect(order.indexOf('bookings')).toBeLessThan(order.indexOf('progress_logs'));
  });

  it('round-trips every row into a fresh database, and new rows continue after the loaded ids', async () => {
    await seedDatabase(source.deps.db);
    const dump = await exportDatabase(source.deps.db);
    expect(dump.format).toBe(DUMP_FORMAT);
    expect(dump.tables.bookings!.length).toBeGreaterThan(3);
    // The paid demo bookings' invoices, and the counter their numbers came from.
    expect(dump.tables.invoices!.length).toBeGreaterThan(0);
    expect(dump.tables.invoice_sequence).toEqual([{ id: 1, last_number: dump.tables.invoices!.length }]);

    // Through text, as the file on disk carries it.
    await importDatabase(target.deps.db, JSON.parse(JSON.stringify(dump)));
    const again = await exportDatabase(target.deps.db);
    expect(again.tables).toEqual(dump.tables);

    const maxId = Math.max(...(dump.tables.bookings as { id: number }[]).map((row) => row.id));
    const [created] = await target.deps.db
      .insert(bookings)
      .values({
        firstName: 'Nia', lastName: 'Hughes', email: 'nia@example.org', phone: '0161 496 0000', quantity: 5,
        locationAddress: 'Deansgate, Manchester M3 2BW', workType: 'day', preferredDate: '2027-07-10', totalPricePence: 34900,
      })
      .returning({ id: bookings.id });
    expect(created!.id).toBeGreaterThan(maxId);
  });

  it('loads a dump made before booking_files, keeping which booking each brand file belonged to', async () => {
    const dump = await exportDatabase(source.deps.db);
    const [booking] = dump.tables.bookings as { id: number }[];
    const file = { id: 41, file_name: 'older-dump-logo.png', original_name: 'logo.png', file_size: 4, mime_type: 'image/png', storage: 'disk', client_key: null, created_at: '2026-11-01T10:00:00+00:00' };
    const { booking_files: _, ...older } = dump.tables;
    older.uploaded_files = [{ ...file, booking_id: booking!.id }, { ...file, id: 42, file_name: 'older-dump-unclaimed.png', booking_id: null }];
    await importDatabase(target.deps.db, { ...dump, tables: older });
    expect(await bookingsUsing(target.deps.db, 'older-dump-logo.png')).toEqual([booking!.id]);
    expect(await bookingsUsing(target.deps.db, 'older-dump-unclaimed.png')).toEqual([]);
  });

  it('leaves the client-address hash keys out, so no dump outlives their two days', async () => {
    const now = new Date('2026-11-22T10:00:00Z');
    await currentClientHashKey(source.deps.db, now);
    await source.deps.db.insert(rateLimits).values({ key: 'create-booking:somehash', windowStart: now, count: 1 });
    const dump = await exportDatabase(source.deps.db);
    expect(dump.tables).not.toHaveProperty('client_hash_keys');
    expect(dump.tables.rate_limits).toContainEqual(expect.objectContaining({ key: 'create-booking:somehash' }));

    // Loading a dump keeps the site's own key of the day: running instances hold it in memory,
    // and new ones must find the same one, or a client's counters and replays split between them.
    await currentClientHashKey(target.deps.db, now);
    const before = await target.deps.db.select().from(clientHashKeys);
    expect(before).toHaveLength(1);
    await importDatabase(target.deps.db, JSON.parse(JSON.stringify(dump)));
    expect(await target.deps.db.select().from(clientHashKeys)).toEqual(before);
  });

  it('changes nothing when a dump does not load', async () => {
    const ids = () => target.deps.db.select({ id: bookings.id }).from(bookings).orderBy(bookings.id);
    const before = await ids();
    const broken = { format: DUMP_FORMAT, exportedAt: new Date().toISOString(), tables: { bookings: [{ id: 'not a number' }] } };
    await expect(importDatabase(target.deps.db, broken as never)).rejects.toThrow();
    expect(await ids()).toEqual(before);
    expect(before.length).toBeGreaterThan(0);
  });

  it('refuses a file that is not a dump', async () => {
    await expect(importDatabase(target.deps.db, { tables: {} } as never)).rejects.toThrow(/Not a clean-patch-dump/);
  });
});
