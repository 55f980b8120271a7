/**
 * Erasure reaches every table and log that can hold a person's data (docs/SECURITY.md, Privacy):
 * a subject is seeded into every one, erased, and a full database export is searched for them.
 * The classification test makes a new table or column fail here until someone says whether it
 * holds personal data (services/privacy/personal-data-map.ts).
 */
import { describe, expect, it } from 'vitest';
import { eq, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../db/schema.ts';
import { exportDatabase } from '../../db/dump.ts';
import { createMailer } from '../../src/server/providers/mailer.ts';
import type { Logger } from '../../src/server/app/logger.ts';
import { NO_PERSONAL_DATA, PERSONAL_DATA } from '../../src/server/services/privacy/personal-data-map.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { insertBrandFile } from '../fixtures/booking-files.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

const TEXT_TYPES = /^(text|jsonb|json|varchar|character varying)/;

describe('every table is classified for erasure', () => {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable)).map((table) => getTableConfig(table));

  it.each(tables.map((config) => [config.name, config] as const))('%s', (name, config) => {
    const textColumns = config.columns.filter((column) => TEXT_TYPES.test(column.getSQLType())).map((column) => column.name);
    if (textColumns.length === 0) return;
    const personal = PERSONAL_DATA[name as keyof typeof PERSONAL_DATA];
    const none = NO_PERSONAL_DATA[name as keyof typeof NO_PERSONAL_DATA];
    expect(personal === undefined && none === undefined, `${name} is in neither PERSONAL_DATA nor NO_PERSONAL_DATA`).toBe(false);
    expect(personal !== undefined && none !== undefined, `${name} is in both lists`).toBe(false);
    if (personal) {
      const named = new Set<string>([...personal.personal, ...personal.other]);
      expect(textColumns.filter((column) => !named.has(column)), `${name}: text columns nobody classified`).toEqual([]);
    }
  });
});

describe('POST /api/admin/privacy/erase leaves nothing behind', () => {
  it('finds none of the subject\'s name, e-mail, phone or address anywhere after erasure', async () => {
    const ctx = await createTestContext({ ADMIN_EMAIL: 'office@cleanpatch.example' });
    const printed: string[] = [];
    const record = (message: string, extra?: Record<string, unknown>) => printed.push(`${message} ${JSON.stringify(extra ?? {})}`);
    const logger: Logger = { info: record, warn: record, error: record };
    ctx.deps.log = logger;
    ctx.deps.mailer = createMailer(ctx.deps.env, logger);
    const db = ctx.deps.db;
    const person = {
      firstName: 'Zenobia',
      lastName: 'Quartermaine',
      email: 'zenobia@quartermaine.co.uk',
      phone: '0161 496 0999',
      address: '17 Quartermaine Lane, Manchester, M4 1AB, United Kingdom',
    };
    const browser = freshClient();
    const payload = bookingPayload({
      firstName: person.firstName,
      lastName: person.lastName,
      email: person.email,
      phone: person.phone,
      businessName: 'Quartermaine Cafe',
      locationAddress: person.address,
      locationCoordinates: [{ address: person.address, lat: 53.48, lng: -2.23 }],
      specialInstructions: `Call ${person.phone} at the gate`,
      preferredDate: '2027-07-20',
    });
    const created = await ctx.app.request('/api/bookings', jsonRequest(payload, { headers: { 'Idempotency-Key': 'zenobia-key' } }), browser);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const enquiry = await ctx.app.request(
      '/api/contacts',
      jsonRequest({ firstName: person.firstName, lastName: person.lastName, email: person.email, phone: person.phone, inquiryType: 'Custom Quote', message: `Also ${person.address}, please.` }),
      freshClient(),
    );
    expect(enquiry.status).toBe(201);
    // Staff notes, a photo with a description, a review, a worker's route e-mail, a geocoded address.
    await db.insert(schema.progressLogs).values({ bookingId: id, step: 2, stepName: 'Stencil Creation', status: 'active', notes: `Spoke to ${person.firstName} ${person.lastName} on ${person.phone}` });
    await db.update(schema.bookings).set({ statusNotes: `Gate code from ${person.firstName}` }).where(eq(schema.bookings.id, id));
    await ctx.deps.files.put('photo-zenobia.png', new Uint8Array([137, 80, 78, 71]), 'image/png');
    await db.insert(schema.photos).values({ bookingId: id, fileName: 'photo-zenobia.png', originalName: 'zenobia-shopfront.png', description: `Outside ${person.address}`, photoType: 'after', step: 5, fileSize: 4, mimeType: 'image/png' });
    await db.insert(schema.reviews).values({ bookingId: id, rating: 5, reviewText: `Lovely work at ${person.address}`, customerName: `${person.firstName} Q.` });
    await db.insert(schema.emailOutbox).values({
      kind: 'worker-routes', to: 'sam@cleanpatch.example', subject: 'Routes for 20 July',
      text: `Stop 1: ${person.firstName} ${person.lastName}, ${person.address}`, dedupeKey: 'worker-routes:2027-07-20:sam',
    });
    await db.insert(schema.geocodeCache).values({ key: `search:${person.address.toLowerCase()}`, result: { address: person.address } });
    // A stencil proof the customer asked to change, a paid change, and a brand file sent in parts.
    await ctx.deps.files.put('proof-4f9c2e.png', new Uint8Array([137, 80, 78, 71]), 'image/png');
    await ctx.deps.files.put('proof-preview-4f9c2e.png', new Uint8Array([137, 80, 78, 71]), 'image/png');
    const [proof] = await db
      .insert(schema.proofs)
      .values({ bookingId: id, version: 1, status: 'approved', note: `For ${person.firstName}`, fileName: 'proof-4f9c2e.png', previewFileName: 'proof-preview-4f9c2e.png', originalName: 'quartermaine-cafe-v1.png', mimeType: 'image/png', fileSize: 4, createdBy: 'admin', comment: `Ring ${person.phone} first` })
      .returning();
    await db.insert(schema.stencilChanges).values({ bookingId: id, proofId: proof!.id, comment: `Make ${person.lastName} bigger`, amountPence: 2500, status: 'waived', waivedBy: 'admin', waivedReason: `${person.firstName} is a regular` });
    await insertBrandFile(db, { fileName: 'upload-zenobia.pdf', originalName: 'quartermaine-logo.pdf', mimeType: 'application/pdf', fileSize: 4, storage: 'disk' }, id);
    await db.insert(schema.uploadSessions).values({ id: 'session-zenobia', originalName: 'quartermaine-logo.pdf', fileSize: 4, partSize: 4, partCount: 1, fileName: 'upload-zenobia.pdf' });
    await ctx.deps.mailer.deliverQueued(db, { now: ctx.deps.now() });

    const cookie = await adminCookie(ctx);
    const erased = await ctx.app.request('/api/admin/privacy/erase', adminRequest(cookie, { body: { email: person.email.toUpperCase() } }));
    expect(erased.status).toBe(200);

    const needles = [person.firstName, person.lastName, person.email, person.phone, '17 Quartermaine Lane', 'Quartermaine Cafe'];
    const dump = JSON.stringify(await exportDatabase(db));
    for (const needle of needles) expect(dump.toLowerCase(), `the export still holds ${needle}`).not.toContain(needle.toLowerCase());
    // The process's own log (stdout) never held them: it names e-mails by id.
    for (const needle of needles) expect(printed.join('\n')).not.toContain(needle);
    // Replaying the booking's Idempotency-Key returns nothing of the erased booking.
    const replay = await ctx.app.request('/api/bookings', jsonRequest(payload, { headers: { 'Idempotency-Key': 'zenobia-key' } }), browser);
    expect(replay.status).toBe(410);
    const replayed = await replay.text();
    for (const needle of needles) expect(replayed).not.toContain(needle);
    // The files are gone from storage too.
    await expect(ctx.deps.files.get('photo-zenobia.png')).resolves.toBeNull();
    await expect(ctx.deps.files.get('proof-4f9c2e.png')).resolves.toBeNull();
    await expect(ctx.deps.files.get('proof-preview-4f9c2e.png')).resolves.toBeNull();
    // What the accounts need stays: the change's amount and state, the proof's version.
    const [change] = await db.select().from(schema.stencilChanges).where(eq(schema.stencilChanges.bookingId, id));
    expect(change).toMatchObject({ amountPence: 2500, status: 'waived' });
  }, 120_000);

  it("erases a worker: the worker row and day links go, and the stop history no longer names them", async () => {
    const ctx = await createTestContext({});
    const db = ctx.deps.db;
    const created = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: '2027-07-21' })), freshClient());
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const [worker] = await db.insert(schema.workers).values({ name: 'Ottoline Vexley', email: 'ottoline@vexley.example' }).returning();
    await db.insert(schema.crewLinks).values({ tokenHash: 'hash-ottoline', workerId: worker!.id, day: '2027-07-21', expiresAt: new Date('2027-07-22T11:00:00Z') });
    await db.insert(schema.crewStops).values({ bookingId: id, day: '2027-07-21', status: 'done', workerId: worker!.id, workerName: 'Ottoline Vexley' });
    // What the crew's day wrote: Done's status note, progress log and channel log, and the route
    // e-mail's channel log, whose entity id is the worker's address.
    const doneNote = 'Installed by Ottoline Vexley (crew), marked done at 11:15';
    await db.update(schema.bookings).set({ statusNotes: doneNote }).where(eq(schema.bookings.id, id));
    await db.insert(schema.progressLogs).values({ bookingId: id, step: 4, stepName: 'On-Site Installation', status: 'installation_complete', notes: doneNote });
    await db.insert(schema.channelLogs).values([
      { channel: 'admin', action: 'progress_updated', entityType: 'booking', entityId: String(id), userId: `crew:${worker!.id}`, details: `Booking #${id} moved from step 3 to step 4: On-Site Installation by Ottoline Vexley (crew)` },
      { channel: 'notification', action: 'crew_on_the_way', entityType: 'booking', entityId: String(id), userId: `crew:${worker!.id}`, details: `Ottoline Vexley is on the way to booking #${id}` },
      { channel: 'notification', action: 'worker_routes_sent', entityType: 'worker', entityId: 'ottoline@vexley.example', userId: 'system', details: 'Routes for 2027-07-21 (1 routes, 1 bookings)', metadata: { date: '2027-07-21' } },
    ]);

    const cookie = await adminCookie(ctx);
    const erased = await ctx.app.request('/api/admin/privacy/erase', adminRequest(cookie, { body: { email: 'Ottoline@Vexley.example' } }));
    expect(erased.status).toBe(200);
    const dump = JSON.stringify(await exportDatabase(db)).toLowerCase();
    for (const needle of ['ottoline', 'vexley']) expect(dump, `the export still holds ${needle}`).not.toContain(needle);
    // The stop itself stays done: the customer's project history does not change.
    const [stop] = await db.select().from(schema.crewStops).where(eq(schema.crewStops.bookingId, id));
    expect(stop).toMatchObject({ status: 'done', workerId: null });
    // The notes keep what happened, without who.
    const [booking] = await db.select().from(schema.bookings).where(eq(schema.bookings.id, id));
    expect(booking!.statusNotes).toBe('Installed by Erased (crew), marked done at 11:15');
    const [log] = await db.select().from(schema.progressLogs).where(eq(schema.progressLogs.bookingId, id));
    expect(log!.notes).toBe('Installed by Erased (crew), marked done at 11:15');
    expect(await db.select().from(schema.crewLinks)).toEqual([]);
  }, 60_000);
});
