import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { channelLogs, emailOutbox } from '../../db/schema.ts';
import { silentLogger } from '../../src/server/app/logger.ts';
import { claimedEmails, type ClaimedEmailRow, queueEmail, STUCK_SENDING_MINUTES } from '../../src/server/providers/email-outbox.ts';
import { createMailer, deliverQueuedWithin, JOB_MAIL_BATCH, JOB_MAIL_CONCURRENCY } from '../../src/server/providers/mailer.ts';
import { runCombinedReturning } from '../../db/combined-writes.ts';
import { createTestContext } from '../setup/test-app.ts';

const ctx = await createTestContext();

describe('e-mail delivery through SendGrid', () => {
  it('posts text, HTML and attachments to SendGrid and marks the row sent', async () => {
    const requests: { url: string; body: Record<string, unknown> }[] = [];
    const mailer = createMailer({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.fake' }, silentLogger, async (url, init) => {
      requests.push({ url: String(url), body: JSON.parse(String(init?.body)) });
      return new Response(null, { status: 202 });
    });
    const invite = Buffer.from('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n').toString('base64');
    await queueEmail(ctx.deps.db, {
      to: 'jo@harbourcafe.co.uk', subject: 'Your booking', text: 'Hello', html: '<p>Hello</p>', kind: 'enquiry-acknowledgement', dedupeKey: 'attach-1',
      attachments: [{ filename: 'installation.ics', type: 'text/calendar; charset=utf-8; method=REQUEST', content: invite }],
    });
    expect(await mailer.deliverQueued(ctx.deps.db, { dedupeKeys: ['attach-1'] })).toEqual({ sent: 1, failed: 0 });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe('https://api.sendgrid.com/v3/mail/send');
    expect(requests[0]!.body).toMatchObject({
      subject: 'Your booking',
      content: [{ type: 'text/plain', value: 'Hello' }, { type: 'text/html', value: '<p>Hello</p>' }],
      attachments: [{ filename: 'installation.ics', content: invite, disposition: 'attachment' }],
    });
    const [row] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, 'attach-1'));
    expect(row).toMatchObject({ status: 'sent', provider: 'sendgrid' });
  });

  it('sends an image the HTML shows by Content-ID inline, not as a file to open', async () => {
    const requests: { body: Record<string, unknown> }[] = [];
    const mailer = createMailer({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.fake' }, silentLogger, async (_url, init) => {
      requests.push({ body: JSON.parse(String(init?.body)) });
      return new Response(null, { status: 202 });
    });
    const png = Buffer.from([137, 80, 78, 71]).toString('base64');
    await queueEmail(ctx.deps.db, {
      to: 'noor@hartleyflorist.co.uk', subject: 'Your proof', text: 'Hello', html: '<img src="cid:stencil-proof-preview">', kind: 'test', dedupeKey: 'inline-1',
      attachments: [{ filename: 'stencil-proof-v1.png', type: 'image/png', content: png, contentId: 'stencil-proof-preview' }],
    });
    expect(await mailer.deliverQueued(ctx.deps.db, { dedupeKeys: ['inline-1'] })).toEqual({ sent: 1, failed: 0 });
    expect(requests[0]!.body).toMatchObject({
      attachments: [{ filename: 'stencil-proof-v1.png', type: 'image/png', content: png, disposition: 'inline', content_id: 'stencil-proof-preview' }],
    });
  });

  it('keeps a message SendGrid refuses in the outbox as failed, for the hourly retry', async () => {
    const mailer = createMailer({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.fake' }, silentLogger, async () => new Response('quota', { status: 429 }));
    await queueEmail(ctx.deps.db, { to: 'jo@harbourcafe.co.uk', subject: 'Again', text: 'Hi', kind: 'test', dedupeKey: 'refused-1' });
    expect(await mailer.deliverQueued(ctx.deps.db, { dedupeKeys: ['refused-1'] })).toEqual({ sent: 0, failed: 1 });
    const [row] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, 'refused-1'));
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.error).toContain('429');
  });

  it('logs each delivered message on the email channel by kind and row, never by address or subject', async () => {
    const delivered = async (env: typeof ctx.deps.env, dedupeKey: string) => {
      const mailer = createMailer(env, silentLogger, async () => new Response(null, { status: 202 }));
      await queueEmail(ctx.deps.db, {
        to: 'priya@patelbakery.co.uk', subject: 'New enquiry: Priya Patel', text: 'Hi', kind: 'enquiry-staff-notification', dedupeKey,
      });
      expect(await mailer.deliverQueued(ctx.deps.db, { dedupeKeys: [dedupeKey] })).toEqual({ sent: 1, failed: 0 });
      const [row] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, dedupeKey));
      const logs = await ctx.deps.db
        .select()
        .from(channelLogs)
        .where(and(eq(channelLogs.channel, 'email'), eq(channelLogs.entityType, 'email'), eq(channelLogs.entityId, String(row!.id))));
      expect(logs).toHaveLength(1);
      const text = JSON.stringify(logs[0]);
      expect(text).not.toContain('priya@patelbakery.co.uk');
      expect(text).not.toContain('Priya');
      return logs[0]!;
    };

    const sent = await delivered({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.fake' }, 'logged-sendgrid');
    expect(sent).toMatchObject({ action: 'email_sent', severity: 'info', metadata: { kind: 'enquiry-staff-notification', provider: 'sendgrid', attachments: 0 } });
    expect(sent.details).toMatch(/^enquiry-staff-notification e-mail #\d+ sent through SendGrid$/);

    const local = await delivered(ctx.deps.env, 'logged-outbox');
    expect(local).toMatchObject({ action: 'email_sent', metadata: { provider: 'outbox' } });
    expect(local.details).toContain('written to the outbox only (SENDGRID_API_KEY is not set)');
  });

  it('logs a refused message as a failure only', async () => {
    const mailer = createMailer({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.fake' }, silentLogger, async () => new Response('down', { status: 503 }));
    await queueEmail(ctx.deps.db, { to: 'jo@harbourcafe.co.uk', subject: 'Once', text: 'Hi', kind: 'test', dedupeKey: 'refused-2' });
    await mailer.deliverQueued(ctx.deps.db, { dedupeKeys: ['refused-2'] });
    const [row] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, 'refused-2'));
    const logs = await ctx.deps.db
      .select({ action: channelLogs.action, details: channelLogs.details })
      .from(channelLogs)
      .where(and(eq(channelLogs.entityType, 'email'), eq(channelLogs.entityId, String(row!.id))));
    expect(logs.map((log) => log.action)).toEqual(['email_failed']);
    // Like a delivery's line, a failure's names the message's kind and row, not the recipient:
    // the Logs tab is read by every admin, and the outbox row holds the address for whoever needs it.
    expect(logs[0]!.details).toMatch(/^test e-mail #\d+ failed: /);
    expect(logs[0]!.details).not.toContain('harbourcafe');
  });

  it('sends a job\'s mail several at a time, all of it, and leaves what its time did not allow queued and unattempted', async () => {
    let inFlight = 0;
    let most = 0;
    const mailer = createMailer({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.fake' }, silentLogger, async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      return new Response(null, { status: 202 });
    });
    const keys = Array.from({ length: JOB_MAIL_BATCH + 5 }, (_, index) => `job-batch-${index}`);
    for (const key of keys) await queueEmail(ctx.deps.db, { to: 'crew@cleanpatch.co.uk', subject: 'Routes', text: 'Hi', kind: 'test', dedupeKey: key });
    // More than one batch: every message goes, not only the first batch.
    expect(await deliverQueuedWithin(mailer, ctx.deps.db, { dedupeKeys: keys, until: Date.now() + 60_000 })).toEqual({ sent: keys.length, failed: 0 });
    expect(most).toBe(JOB_MAIL_CONCURRENCY);

    await queueEmail(ctx.deps.db, { to: 'crew@cleanpatch.co.uk', subject: 'Late', text: 'Hi', kind: 'test', dedupeKey: 'job-late' });
    expect(await mailer.deliverQueued(ctx.deps.db, { dedupeKeys: ['job-late'], until: Date.now() - 1 })).toEqual({ sent: 0, failed: 0 });
    const [row] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, 'job-late'));
    expect(row).toMatchObject({ status: 'queued', attempts: 0 });
  });
});

describe('e-mails written already claimed', () => {
  const message = (dedupeKey: string) => ({ to: 'amira@northernroasters.co.uk', subject: 'Booking\nconfirmed', text: 'Hi', kind: 'test', dedupeKey });

  async function writeClaimed(dedupeKey: string, claimedAt: Date) {
    const outbox = claimedEmails(ctx.deps.db, [message(dedupeKey)], claimedAt);
    const [claimed] = outbox.sendable(await runCombinedReturning<ClaimedEmailRow>(ctx.deps.db, [], outbox.write));
    return claimed!;
  }

  it('sends what the row holds and marks it, without claiming it again', async () => {
    const claimedAt = new Date('2026-11-22T10:00:00Z');
    const claimed = await writeClaimed('claimed-now', claimedAt);
    const sent: string[] = [];
    const mailer = createMailer({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.fake' }, silentLogger, async (_url, init) => {
      sent.push(JSON.parse(String(init?.body)).subject);
      return new Response(null, { status: 202 });
    });
    expect(await mailer.deliverClaimed(ctx.deps.db, [claimed], { claimedAt, now: new Date(claimedAt.getTime() + 1000) })).toEqual({ sent: 1, failed: 0 });
    const [row] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, 'claimed-now'));
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    // The subject sent is the row's, cleaned to one line as it was stored.
    expect(sent).toEqual([row!.subject]);
  });

  it('leaves a claim to the maintenance job when its delivery starts too late, so the two never both send it', async () => {
    const claimedAt = new Date('2026-11-22T10:00:00Z');
    const claimed = await writeClaimed('claimed-late', claimedAt);
    const late = new Date(claimedAt.getTime() + (STUCK_SENDING_MINUTES / 2) * 60_000 + 1000);
    expect(await ctx.deps.mailer.deliverClaimed(ctx.deps.db, [claimed], { claimedAt, now: late })).toEqual({ sent: 0, failed: 0 });
    const [row] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, 'claimed-late'));
    expect(row).toMatchObject({ status: 'sending', attempts: 1 });
  });
});
