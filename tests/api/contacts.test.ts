import { desc, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { channelLogs, contactEnquiries, emailOutbox } from '../../db/schema.ts';
import { BUSINESS } from '../../src/content/business.ts';
import { CONTACT_MESSAGES } from '../../src/domain/contact-schema.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

const ctx = await createTestContext();

const enquiry = {
  firstName: 'Amira',
  lastName: 'Khan',
  email: 'amira@northernroasters.co.uk',
  phone: '0161 496 0000',
  inquiryType: 'Custom Quote',
  message: 'Twenty patches <b>outside</b> our three cafés in Leeds, please.',
  website: '',
};

function send(body: Record<string, unknown>) {
  return ctx.app.request('/api/contacts', jsonRequest(body), freshClient());
}

beforeEach(async () => {
  await ctx.deps.db.delete(contactEnquiries);
  await ctx.deps.db.delete(emailOutbox);
});

describe('POST /api/contacts', () => {
  it('stores the enquiry, logs it and mails the business and the sender', async () => {
    const response = await send(enquiry);
    expect(response.status).toBe(201);

    const rows = await ctx.deps.db.select().from(contactEnquiries);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      firstName: 'Amira',
      lastName: 'Khan',
      email: enquiry.email,
      phone: enquiry.phone,
      inquiryType: 'Custom Quote',
      message: enquiry.message,
    });

    const mail = await ctx.deps.db.select().from(emailOutbox).orderBy(emailOutbox.id);
    expect(mail.map((row) => [row.kind, row.to])).toEqual([
      ['enquiry-staff-notification', BUSINESS.email],
      ['enquiry-acknowledgement', enquiry.email],
    ]);
    // Sent before the answer (the outbox transport marks them 'logged').
    expect(mail.every((row) => row.status === 'logged')).toBe(true);
    expect(mail[0]!.text).toContain(enquiry.message);
    expect(mail[0]!.text).toContain(enquiry.email);
    expect(mail[1]!.text).toContain('within 24 hours');
    // The customer's text is escaped in the HTML.
    expect(mail[0]!.html).toContain('&lt;b&gt;outside&lt;/b&gt;');
    expect(mail[0]!.html).not.toContain('<b>outside</b>');

    const [log] = await ctx.deps.db
      .select()
      .from(channelLogs)
      .where(eq(channelLogs.action, 'contact_enquiry_received'))
      .orderBy(desc(channelLogs.id))
      .limit(1);
    expect(log).toMatchObject({ entityType: 'contact_enquiry', entityId: String(rows[0]!.id) });
  });

  it('sends the business notification to ADMIN_EMAIL when it is set', async () => {
    const withAdmin = await createTestContext({ ADMIN_EMAIL: 'office@cleanpatch.example' });
    const response = await withAdmin.app.request('/api/contacts', jsonRequest(enquiry), freshClient());
    expect(response.status).toBe(201);
    const [staff] = await withAdmin.deps.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, 'enquiry-staff-notification'));
    expect(staff?.to).toBe('office@cleanpatch.example');
  });

  it('keeps an enquiry without a phone number', async () => {
    expect((await send({ ...enquiry, phone: '' })).status).toBe(201);
    const [row] = await ctx.deps.db.select().from(contactEnquiries);
    expect(row?.phone).toBeNull();
  });

  it('answers a filled honeypot with the usual 201 but stores and mails nothing', async () => {
    const response = await send({ ...enquiry, website: 'https://spam.example' });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ ok: true });
    expect(await ctx.deps.db.select().from(contactEnquiries)).toHaveLength(0);
    expect(await ctx.deps.db.select().from(emailOutbox)).toHaveLength(0);
  });

  it.each([
    ['firstName', { firstName: '' }, CONTACT_MESSAGES.firstNameRequired],
    ['lastName', { lastName: '  ' }, CONTACT_MESSAGES.lastNameRequired],
    ['email', { email: 'not-an-email' }, CONTACT_MESSAGES.emailInvalid],
    ['inquiryType', { inquiryType: '' }, CONTACT_MESSAGES.inquiryTypeRequired],
    ['inquiryType', { inquiryType: 'Lottery win' }, CONTACT_MESSAGES.inquiryTypeRequired],
    ['message', { message: 'Too short' }, CONTACT_MESSAGES.messageTooShort],
    ['message', { message: 'x'.repeat(5001) }, 'Message must be 5000 characters or fewer'],
  ])('refuses a bad %s with the spec message and stores nothing', async (field, change, message) => {
    const response = await send({ ...enquiry, ...change });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; fields: Record<string, string> };
    expect(body.fields[field]).toBe(message);
    expect(await ctx.deps.db.select().from(contactEnquiries)).toHaveLength(0);
    expect(await ctx.deps.db.select().from(emailOutbox)).toHaveLength(0);
  });

  it('lists every missing field at once', async () => {
    const response = await send({});
    expect(response.status).toBe(400);
    const { fields } = (await response.json()) as { fields: Record<string, string> };
    expect(fields).toMatchObject({
      firstName: CONTACT_MESSAGES.firstNameRequired,
      lastName: CONTACT_MESSAGES.lastNameRequired,
      email: CONTACT_MESSAGES.emailInvalid,
      inquiryType: CONTACT_MESSAGES.inquiryTypeRequired,
      message: CONTACT_MESSAGES.messageTooShort,
    });
  });

  it('refuses a malformed body and a wrong content type without a 500', async () => {
    expect((await ctx.app.request('/api/contacts', jsonRequest('{"firstName":'), freshClient())).status).toBe(400);
    const wrongType = jsonRequest(enquiry, { headers: { 'Content-Type': 'text/plain' } });
    expect((await ctx.app.request('/api/contacts', wrongType, freshClient())).status).toBe(415);
  });

  it('rate limits one client after 10 enquiries an hour, honeypot hits included', async () => {
    const client = freshClient();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const body = i % 2 ? { ...enquiry, website: 'bot' } : enquiry;
      statuses.push((await ctx.app.request('/api/contacts', jsonRequest(body), client)).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    const limited = await ctx.app.request('/api/contacts', jsonRequest(enquiry), client);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
