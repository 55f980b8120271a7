import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bookings, channelLogs, emailOutbox, trackingLinks } from '../../db/schema.ts';
import { createApp } from '../../src/server/api/app.ts';
import { TRACKING_NOT_FOUND, revokeTrackingAccess } from '../../src/server/services/projects/tracking.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

const ctx = await createTestContext();
let dateOffset = 0;

/** A booking made as the form makes it; its confirmation e-mail carries the magic link. */
async function book(overrides: Record<string, unknown> = {}) {
  dateOffset += 1;
  const preferredDate = `2027-07-${String(dateOffset).padStart(2, '0')}`;
  const response = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate, ...overrides })), freshClient());
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: number };
  const [mail] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `booking-confirmation:${id}`));
  const token = /\/track-project\?t=([\w-]+)/.exec(mail!.text)?.[1];
  return { id, token: token!, email: String(bookingPayload().email), mail: mail! };
}

const track = (body: unknown, client = freshClient(), app = ctx.app) => app.request('/api/track-project', jsonRequest(body), client);

describe('POST /api/track-project by e-mail and booking ID', () => {
  it("answers the spec's tracked booking and nothing more personal", async () => {
    const { id, email } = await book();
    const response = await track({ email, bookingId: id });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'id', 'firstName', 'lastName', 'quantity', 'totalPrice', 'preferredDate', 'workType', 'status', 'currentStep',
        'consultationDate', 'stencilApprovedDate', 'installationDate', 'completionDate', 'crew',
      ].sort(),
    );
    // No crew has been out yet; the crew's status never names the worker or a position.
    expect(body.crew).toBeNull();
    expect(body).toMatchObject({ id, firstName: 'Amira', lastName: 'Khan', quantity: 10, totalPrice: 799, workType: 'night', currentStep: 1 });
    const logs = await ctx.deps.db
      .select()
      .from(channelLogs)
      .where(and(eq(channelLogs.action, 'project_tracked'), eq(channelLogs.entityId, String(id))));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.channel).toBe('booking');
  });

  it('ignores the case and surrounding spaces of the e-mail address', async () => {
    const { id } = await book();
    const response = await track({ email: '  AMIRA@NorthernRoasters.CO.UK ', bookingId: id });
    expect(response.status).toBe(200);
  });

  it('gives a wrong e-mail and an unknown id the same 404, word for word', async () => {
    const { id, email } = await book();
    const wrongEmail = await track({ email: 'someone@else.example', bookingId: id });
    const unknownId = await track({ email, bookingId: 999_999 });
    const impossibleId = await track({ email, bookingId: 99_999_999_999 });
    for (const response of [wrongEmail, unknownId, impossibleId]) {
      expect(response.status).toBe(404);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    const bodies = await Promise.all([wrongEmail, unknownId, impossibleId].map(async (response) => {
      const { requestId: _requestId, ...rest } = await response.json();
      return rest;
    }));
    expect(bodies).toEqual([{ error: TRACKING_NOT_FOUND }, { error: TRACKING_NOT_FOUND }, { error: TRACKING_NOT_FOUND }]);
  });

  it('asks for both fields when one is missing or the id is not a whole number', async () => {
    for (const body of [{ email: 'a@b.example' }, { bookingId: 1 }, { email: '', bookingId: 1 }, { email: 'a@b.example', bookingId: 1.5 }]) {
      const response = await track(body);
      expect(response.status).toBe(400);
    }
  });

  it('limits one client to 10 tries in 10 minutes, counted across function instances', async () => {
    // Two apps over one database, as two Netlify function instances would be.
    const first = createApp(ctx.deps);
    const second = createApp(ctx.deps);
    const client = freshClient();
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await track({ email: 'guess@example.org', bookingId: attempt + 1 }, client, attempt % 2 ? first : second);
      expect(response.status).toBe(404);
    }
    const limited = await track({ email: 'guess@example.org', bookingId: 11 }, client, second);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not held back.
    expect((await track({ email: 'guess@example.org', bookingId: 12 }, freshClient(), first)).status).toBe(404);
  });
});

describe('POST /api/track-project by magic link', () => {
  it('puts an absolute link in the confirmation e-mail and keeps only its hash', async () => {
    const { id, token, mail } = await book();
    expect(mail.text).toContain(`http://localhost:8888/track-project?t=${token}`);
    expect(mail.html).toContain(`/track-project?t=${token}`);
    const rows = await ctx.deps.db.select().from(trackingLinks).where(eq(trackingLinks.bookingId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(token);
    expect(token.length).toBeGreaterThanOrEqual(22);
  });

  it('works more than once', async () => {
    const { id, token } = await book();
    for (let time = 0; time < 2; time += 1) {
      const response = await track({ token });
      expect(response.status).toBe(200);
      expect((await response.json()).id).toBe(id);
      expect(response.headers.get('set-cookie')).toContain('cp_photos=');
    }
  });

  it('refuses a tampered token with the same 404', async () => {
    const { token } = await book();
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const bad of [flipped, 'x', token + 'A']) {
      const response = await track({ token: bad });
      expect(response.status).toBe(404);
      expect((await response.json()).error).toBe(TRACKING_NOT_FOUND);
    }
  });

  it('stops working once the booking is erased or deleted', async () => {
    const erased = await book();
    await revokeTrackingAccess(ctx.deps.db, erased.id);
    expect((await track({ token: erased.token })).status).toBe(404);

    const deleted = await book();
    await ctx.deps.db.delete(bookings).where(eq(bookings.id, deleted.id));
    expect((await track({ token: deleted.token })).status).toBe(404);
  });
});
