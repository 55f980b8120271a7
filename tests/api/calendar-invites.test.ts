import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { bookings, channelLogs, emailOutbox } from '../../db/schema.ts';
import { addDays } from '../../src/domain/format.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

// The installation's calendar invite: attached to the booking confirmation, and sent again with
// the next SEQUENCE when staff move the installation to another day (never when the day stays).

const ctx = await createTestContext();
const db = ctx.deps.db;
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(ctx);
});

/** Dates far apart enough that bookings never share a day's capacity. */
let day = 0;
const nextDate = () => addDays('2027-09-01', (day += 3));

async function book(preferredDate = nextDate()): Promise<number> {
  const response = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate })), freshClient());
  expect(response.status).toBe(201);
  // The confirmation is delivered after the answer; wait for it before reading the outbox.
  await ctx.deps.background.idle();
  return (await response.json()).id;
}

const progress = (id: number, body: Record<string, unknown>) =>
  ctx.app.request(`/api/admin/bookings/${id}/progress`, adminRequest(cookie, { method: 'PATCH', body: { currentStep: 1, ...body } }));

/** The booking's e-mails carrying an invite, oldest first. */
async function inviteMail(id: number) {
  const rows = await db.select().from(emailOutbox).where(like(emailOutbox.dedupeKey, `%:${id}%`)).orderBy(emailOutbox.id);
  return rows.filter((row) => row.attachments?.length && new RegExp(`:${id}(:|$)`).test(row.dedupeKey ?? ''));
}

/** The .ics text of an outbox row's one attachment, lines unfolded. */
function icsOf(row: { attachments: { content: string }[] | null }): string {
  return Buffer.from(row.attachments![0]!.content, 'base64').toString('utf8').replace(/\r\n /g, '');
}

describe('the booking confirmation carries the calendar invite', () => {
  it('attaches a text/calendar file with the booking’s UID, SEQUENCE 0 and the preferred date in London', async () => {
    const id = await book('2027-09-01');
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `booking-confirmation:${id}`));
    expect(mail!.attachments).toEqual([{ filename: 'installation.ics', type: 'text/calendar; charset=utf-8; method=REQUEST', content: expect.any(String) }]);
    const ics = icsOf(mail!);
    expect(ics).toContain('\r\nMETHOD:REQUEST\r\n');
    expect(ics).toContain(`\r\nUID:booking-${id}@localhost\r\n`);
    expect(ics).toContain('\r\nSEQUENCE:0\r\n');
    // Night work: 6pm in London to 6am the next morning.
    expect(ics).toContain('\r\nDTSTART;TZID=Europe/London:20270901T180000\r\n');
    expect(ics).toContain('\r\nDTEND;TZID=Europe/London:20270902T060000\r\n');
    expect(ics).toContain('\r\nORGANIZER;CN="Clean Patch":mailto:hello@cleanpatch.example\r\n');
    expect(ics).toContain('mailto:amira@northernroasters.co.uk\r\n');
    expect(mail!.status).toBe('logged');
  });
});

describe('changing the installation date sends an updated invite', () => {
  it('queues SEQUENCE 1, then 2, with the same UID and the new day, and delivers each', async () => {
    const id = await book();
    expect((await progress(id, { installationDate: '2027-10-04' })).status).toBe(200);
    expect((await progress(id, { installationDate: '2027-10-11T19:00:00+01:00' })).status).toBe(200);

    const [confirmation, first, second] = await inviteMail(id);
    expect(confirmation!.kind).toBe('booking-confirmation');
    expect([first!.kind, first!.dedupeKey, second!.dedupeKey]).toEqual([
      'installation-rescheduled',
      `installation-rescheduled:${id}:1`,
      `installation-rescheduled:${id}:2`,
    ]);
    expect(first!.to).toBe('amira@northernroasters.co.uk');
    expect(first!.subject).toBe(`New date for your Clean Patch installation (booking #${id}): 4 October 2027`);
    expect(first!.text).toContain('our crew now installs your 10 patches on 4 October 2027, overnight, 6pm - 6am.');
    const uid = `\r\nUID:booking-${id}@localhost\r\n`;
    for (const [row, sequence, start] of [
      [confirmation!, 0, '20270904'],
      [first!, 1, '20271004'],
      [second!, 2, '20271011'],
    ] as const) {
      const ics = icsOf(row);
      expect(ics).toContain(uid);
      expect(ics).toContain(`\r\nSEQUENCE:${sequence}\r\n`);
      expect(ics).toContain(`\r\nDTSTART;TZID=Europe/London:${start}T180000\r\n`);
    }
    expect([first!.status, second!.status]).toEqual(['logged', 'logged']);
    const [row] = await db.select({ inviteSequence: bookings.inviteSequence }).from(bookings).where(eq(bookings.id, id));
    expect(row!.inviteSequence).toBe(2);
    const logs = await db
      .select({ details: channelLogs.details })
      .from(channelLogs)
      .where(and(eq(channelLogs.action, 'installation_invite_updated'), eq(channelLogs.entityId, String(id))));
    expect(logs.map((log) => log.details)).toEqual([
      `Updated calendar invite queued for booking #${id}: installation moved from 2027-09-04 to 2027-10-04 (SEQUENCE 1)`,
      `Updated calendar invite queued for booking #${id}: installation moved from 2027-10-04 to 2027-10-11 (SEQUENCE 2)`,
    ]);
  });

  it('queues nothing when the day does not change', async () => {
    const preferred = nextDate();
    const id = await book(preferred);
    // The preferred date, which the confirmation's invite already holds.
    expect((await progress(id, { installationDate: preferred })).status).toBe(200);
    expect(await inviteMail(id)).toHaveLength(1);
    // A real move, then the same day again, at another time of that London day.
    expect((await progress(id, { installationDate: '2027-11-02' })).status).toBe(200);
    expect((await progress(id, { installationDate: '2027-11-02T15:30:00Z' })).status).toBe(200);
    expect((await progress(id, { installationDate: '2027-11-02' })).status).toBe(200);
    expect((await inviteMail(id)).map((row) => row.dedupeKey)).toEqual([`booking-confirmation:${id}`, `installation-rescheduled:${id}:1`]);
    const [row] = await db.select({ inviteSequence: bookings.inviteSequence }).from(bookings).where(eq(bookings.id, id));
    expect(row!.inviteSequence).toBe(1);
  });

  it('queues nothing for step 4 without a date (it keeps the day), an archived booking, a past day, or a refused update', async () => {
    const stamped = await book();
    for (const step of [1, 2, 3, 4]) expect((await progress(stamped, { currentStep: step })).status).toBe(200);
    expect(await inviteMail(stamped)).toHaveLength(1);

    const archived = await book();
    await db.update(bookings).set({ archived: true }).where(eq(bookings.id, archived));
    expect((await progress(archived, { installationDate: '2027-12-01' })).status).toBe(200);
    expect(await inviteMail(archived)).toHaveLength(1);

    // A day already past in London (the test clock is 22 November 2026) records history.
    const past = await book();
    expect((await progress(past, { installationDate: '2026-11-01' })).status).toBe(200);
    expect(await inviteMail(past)).toHaveLength(1);

    // Step 5 is not available from step 1: the whole update, invite included, is rolled back.
    const refused = await book();
    expect((await progress(refused, { currentStep: 5, installationDate: '2027-12-02' })).status).toBe(400);
    expect(await inviteMail(refused)).toHaveLength(1);
    const [row] = await db.select({ inviteSequence: bookings.inviteSequence }).from(bookings).where(eq(bookings.id, refused));
    expect(row!.inviteSequence).toBe(0);
  });
});
