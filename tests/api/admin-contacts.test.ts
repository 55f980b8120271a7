import { describe, expect, it } from 'vitest';
import { contactEnquiries } from '../../db/schema.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { NOT_SIGNED_IN } from '../../src/server/api/middleware/admin-auth.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;
const cookie = await adminCookie(ctx);

async function insertEnquiries(count: number) {
  const rows = Array.from({ length: count }, (_, i) => ({
    firstName: `Person${i}`,
    lastName: 'Clarke',
    email: `person${i}@lantern.example`,
    phone: i % 2 ? null : '0161 496 0555',
    inquiryType: 'Custom Quote',
    message: `Line one\nLine two <b>${i}</b>`,
    createdAt: new Date(Date.UTC(2026, 10, 1, 9, i)),
  }));
  return db.insert(contactEnquiries).values(rows).returning();
}

describe('GET /api/contacts', () => {
  it('answers 401 without a session', async () => {
    const response = await ctx.app.request('/api/contacts', { headers: { Origin: TEST_ORIGIN } });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: NOT_SIGNED_IN });
  });

  it('lists enquiries newest first with every field, as stored (no HTML interpretation)', async () => {
    await db.delete(contactEnquiries);
    const rows = await insertEnquiries(3);
    const response = await ctx.app.request('/api/contacts', adminRequest(cookie));
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Total-Count')).toBe('3');
    const body = await response.json();
    expect(body.map((e: { id: number }) => e.id)).toEqual(rows.map((row) => row.id).reverse());
    expect(body[0]).toEqual({
      id: rows[2]!.id,
      firstName: 'Person2',
      lastName: 'Clarke',
      email: 'person2@lantern.example',
      phone: '0161 496 0555',
      inquiryType: 'Custom Quote',
      message: 'Line one\nLine two <b>2</b>',
      createdAt: rows[2]!.createdAt.toISOString(),
    });
    expect(body[1].phone).toBeNull();
  });

  it('pages with limit and cursor until every enquiry has been seen once', async () => {
    await db.delete(contactEnquiries);
    const rows = await insertEnquiries(5);
    const first = await ctx.app.request('/api/contacts?limit=2', adminRequest(cookie));
    expect(first.headers.get('X-Total-Count')).toBe('5');
    const seen = (await first.json()).map((e: { id: number }) => e.id);
    let cursor = first.headers.get('X-Next-Cursor');
    while (cursor) {
      const next = await ctx.app.request(`/api/contacts?limit=2&cursor=${cursor}`, adminRequest(cookie));
      seen.push(...(await next.json()).map((e: { id: number }) => e.id));
      cursor = next.headers.get('X-Next-Cursor');
    }
    expect(seen).toEqual(rows.map((row) => row.id).reverse());
    expect((await ctx.app.request('/api/contacts?limit=500', adminRequest(cookie))).status).toBe(400);
  });
});
