import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { channelLogs, reviews } from '../../db/schema.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

const ctx = await createTestContext();
const cookie = await adminCookie(ctx);

async function review(text: string, rating: number) {
  const [row] = await ctx.deps.db.insert(reviews).values({ rating, reviewText: text, customerName: 'Sam K.' }).returning({ id: reviews.id });
  return row!.id;
}
const publicTexts = async () => ((await (await ctx.app.request('/api/reviews/public')).json()) as { reviewText: string }[]).map((row) => row.reviewText);

describe('review moderation', () => {
  it('is for admins only', async () => {
    expect((await ctx.app.request('/api/admin/reviews')).status).toBe(401);
    expect((await ctx.app.request('/api/admin/reviews/1/hide', jsonRequest({ reason: 'abusive' }))).status).toBe(401);
  });

  it('hides a review only for a policy reason, logs why, and can publish it again', async () => {
    const id = await review('Rude words about the crew.', 1);
    const low = await review('Slow, but the result was fine.', 2);
    const refused = await ctx.app.request(`/api/admin/reviews/${low}/hide`, adminRequest(cookie, { body: { reason: 'low score' } }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe('A review can only be hidden for abuse or personal data');

    expect((await ctx.app.request(`/api/admin/reviews/${id}/hide`, adminRequest(cookie, { body: { reason: 'abusive' } }))).status).toBe(204);
    expect(await publicTexts()).not.toContain('Rude words about the crew.');
    expect(await publicTexts()).toContain('Slow, but the result was fine.');
    const listed = await (await ctx.app.request('/api/admin/reviews', adminRequest(cookie))).json();
    expect(listed.find((row: { id: number }) => row.id === id)).toMatchObject({ isPublished: false, hiddenReason: 'abusive' });
    const [log] = await ctx.deps.db.select().from(channelLogs).where(eq(channelLogs.action, 'review_hidden'));
    expect(log?.details).toBe(`Review #${id} hidden: Abusive or offensive language`);

    expect((await ctx.app.request(`/api/admin/reviews/${id}/restore`, adminRequest(cookie, { method: 'POST' }))).status).toBe(204);
    expect(await publicTexts()).toContain('Rude words about the crew.');
    expect((await ctx.app.request('/api/admin/reviews/99999/restore', adminRequest(cookie, { method: 'POST' }))).status).toBe(404);
  });
});
