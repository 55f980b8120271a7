import { describe, expect, it } from 'vitest';
import { bookings, proofs } from '../../db/schema.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { freshClient } from '../fixtures/bookings.ts';

// "Stencil approved: Not yet" beside "Version 1 approved": the proof's decision is the one source
// of the stencil's approval, on the Projects card and on the customer's tracking page alike.

const ctx = await createTestContext();
const db = ctx.deps.db;
const APPROVED_AT = new Date('2027-03-04T10:30:00Z');
const STAMPED = new Date('2027-03-01T09:00:00Z');

async function booking(fields: { stencilApprovedDate: Date | null; currentStep: number }) {
  const [row] = await db
    .insert(bookings)
    .values({
      firstName: 'Hannah', lastName: 'Whitworth', email: `hannah${Math.random().toString(36).slice(2, 7)}@kelhambooks.example`,
      phone: '0114 496 0937', quantity: 5, locationAddress: 'Alma Street, Sheffield S3 8SA', postcode: 'S3', workType: 'day',
      preferredDate: '2027-07-21', totalPricePence: 34_900, ...fields,
    })
    .returning();
  return row!;
}

const proof = (bookingId: number, version: number, status: 'approved' | 'awaiting' | 'superseded') => ({
  bookingId, version, status, fileName: `proof-${bookingId}-${version}.png`, originalName: 'logo.png', mimeType: 'image/png',
  fileSize: 10, createdBy: 'admin', createdAt: STAMPED, decidedAt: status === 'awaiting' ? null : APPROVED_AT,
  approvedAt: status === 'approved' || status === 'superseded' ? APPROVED_AT : null,
});

async function cardDate(id: number): Promise<string | null> {
  const rows = (await (await ctx.app.request(`/api/admin/projects?q=%23${id}`, adminRequest(await adminCookie(ctx)))).json()) as { id: number; stencilApprovedDate: string | null }[];
  return rows.find((row) => row.id === id)!.stencilApprovedDate;
}

async function trackedDate(row: { id: number; email: string }): Promise<string | null> {
  const answer = await ctx.app.request('/api/track-project', jsonRequest({ email: row.email, bookingId: row.id }), freshClient());
  return ((await answer.json()) as { stencilApprovedDate: string | null }).stencilApprovedDate;
}

describe('the stencil approval date', () => {
  it("is the approved proof's decision when the booking's own date was never stamped (the demo data)", async () => {
    const row = await booking({ stencilApprovedDate: null, currentStep: 3 });
    await db.insert(proofs).values(proof(row.id, 1, 'approved'));
    expect(await cardDate(row.id)).toBe(APPROVED_AT.toISOString());
    expect(await trackedDate(row)).toBe(APPROVED_AT.toISOString());
  });

  it('is "not yet" while the latest version awaits the customer, whatever a step move stamped', async () => {
    const row = await booking({ stencilApprovedDate: STAMPED, currentStep: 2 });
    await db.insert(proofs).values([proof(row.id, 1, 'superseded'), proof(row.id, 2, 'awaiting')]);
    expect(await cardDate(row.id)).toBeNull();
    expect(await trackedDate(row)).toBeNull();
  });

  it('keeps the stamped date for a project that never had a proof', async () => {
    const row = await booking({ stencilApprovedDate: STAMPED, currentStep: 3 });
    expect(await cardDate(row.id)).toBe(STAMPED.toISOString());
  });
});
