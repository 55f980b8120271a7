import { describe, expect, it } from 'vitest';
import { DATA_PROCESSORS, DATA_RETENTION, PRIVACY, PRIVACY_REQUEST_DAYS } from './privacy.ts';
import { TERMS } from './terms.ts';

const text = (page: typeof TERMS) =>
  page.sections.flatMap((section) => [section.heading, ...section.paragraphs, ...(section.points ?? []), section.closing ?? '']).join('\n');

describe('terms', () => {
  it.each([
    ['no refunds', 'All sales are final with no refunds.'],
    ['free weather rescheduling', 'If bad weather cancels an installation, we reschedule it free of charge.'],
    ['the stencil change fee', 'costs an extra £100 because the stencil has to be remanufactured'],
    ['site suitability', 'Only naturally dirty, untreated surfaces qualify.'],
    ['governing law', 'the laws of England and Wales'],
  ])('states %s', (_, sentence) => {
    expect(text(TERMS)).toContain(sentence);
  });
});

describe('privacy', () => {
  it('keeps bookings 7 years, communications 3 years and analytics 26 months', () => {
    expect(DATA_RETENTION.map((row) => [row.record, row.period])).toEqual([
      ['Bookings', '7 years'],
      ['Communications', '3 years'],
      ['Analytics', '26 months'],
    ]);
  });

  it('says how long invoices are kept, and that erasure keeps them until then', () => {
    expect(text(PRIVACY)).toContain(
      'We keep each invoice for 6 years from the end of the accounting period (our financial year) it belongs to, as HMRC requires for VAT records, and then delete it.',
    );
    expect(text(PRIVACY)).toContain('If you ask us to delete your data, we keep the invoices we issued you until then');
    // The table's 7 years are the bookings' own, not the invoices'.
    expect(DATA_RETENTION.find((row) => row.record === 'Bookings')?.reason).not.toMatch(/invoice/i);
  });

  it('says that artwork a later booking still uses stays with that booking', () => {
    expect(text(PRIVACY)).toContain('unless a later booking made with Book again still uses them: then they stay with that booking, and go when it does.');
  });

  it('answers privacy requests within 30 days', () => {
    expect(PRIVACY_REQUEST_DAYS).toBe(30);
    expect(text(PRIVACY)).toContain('We answer every privacy request within 30 days.');
  });

  it('names the processors the product uses', () => {
    expect(DATA_PROCESSORS.map((processor) => processor.name)).toEqual(
      expect.arrayContaining(['Stripe', 'SendGrid', 'Uploadcare', 'Netlify', 'Neon']),
    );
  });
});
