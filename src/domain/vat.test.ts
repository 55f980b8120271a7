import { describe, expect, it } from 'vitest';
import { formatUkVatNumber, formatVatRate, normaliseCustomerVatNumber, normaliseUkVatNumber, vatOfGross, vatTotals } from './vat.ts';

describe('VAT inside a VAT-inclusive price, in pence, half a penny rounded up', () => {
  it('takes a sixth of the gross at 20%', () => {
    expect(vatOfGross(59_900, 2000)).toBe(9983); // 99.8333... -> 99.83
    expect(vatOfGross(34_900, 2000)).toBe(5817); // 58.1666... -> 58.17
    expect(vatOfGross(10_000, 2000)).toBe(1667);
    expect(vatOfGross(120, 2000)).toBe(20);
  });

  it('rounds at the 1p edges: a fraction under half goes down, over half goes up', () => {
    expect(vatOfGross(1, 2000)).toBe(0); // 0.1667p
    expect(vatOfGross(2, 2000)).toBe(0); // 0.3333p
    expect(vatOfGross(4, 2000)).toBe(1); // 0.6667p
    expect(vatOfGross(6, 2000)).toBe(1); // exactly 1p
  });

  it('rounds exactly half a penny up', () => {
    expect(vatOfGross(3, 2000)).toBe(1); // 0.5p
    expect(vatOfGross(9, 2000)).toBe(2); // 1.5p
    expect(vatOfGross(21, 500)).toBe(1); // 5%: 21 x 5 / 105 = 1.0p
    expect(vatOfGross(126, 500)).toBe(6); // 126 x 5 / 105 = 6.0p
    expect(vatOfGross(2163, 2000)).toBe(361); // 360.5p
    expect(vatOfGross(0, 2000)).toBe(0);
  });

  it('keeps net + VAT equal to the gross and splits VAT over lines without changing the invoice total', () => {
    // Lines of 3p and 3p: each line alone rounds 0.5p up to 1p (2p), the invoice's 6p gross has 1p.
    const totals = vatTotals(
      [
        { description: 'a', quantity: 1, grossPence: 3 },
        { description: 'b', quantity: 1, grossPence: 3 },
      ],
      2000,
    );
    expect(totals.vatPence).toBe(1);
    expect(totals.lines.reduce((sum, line) => sum + line.vatPence, 0)).toBe(1);
    expect(totals.netPence + totals.vatPence).toBe(6);
    for (const line of totals.lines) expect(line.netPence + line.vatPence).toBe(line.grossPence);

    const night = vatTotals(
      [
        { description: 'Campaign', quantity: 1, grossPence: 59_900 },
        { description: 'Night work', quantity: 10, grossPence: 20_000 },
      ],
      2000,
    );
    expect(night).toMatchObject({ grossPence: 79_900, vatPence: 13_317, netPence: 66_583 });
    expect(night.lines[1]).toMatchObject({ unitPence: 2000, vatPence: 3333, netPence: 16_667 });
  });

  it('charges no VAT without a rate (not VAT registered)', () => {
    expect(vatTotals([{ description: 'a', quantity: 1, grossPence: 34_900 }], null)).toMatchObject({ netPence: 34_900, vatPence: 0, grossPence: 34_900 });
  });
});

describe('VAT numbers', () => {
  it('accepts UK numbers in the forms people type and prints them as HMRC does', () => {
    expect(normaliseUkVatNumber('GB 123 4567 89')).toBe('GB123456789');
    expect(normaliseUkVatNumber('123456789')).toBe('GB123456789');
    expect(normaliseUkVatNumber('gb123456789012')).toBe('GB123456789012');
    expect(normaliseUkVatNumber('GBGD001')).toBe('GBGD001');
    expect(formatUkVatNumber('GB123456789')).toBe('GB 123 4567 89');
  });

  it('refuses what is not one', () => {
    for (const bad of ['GB12345678', 'GB1234567890', 'FR12345678901', 'hello', '']) expect(normaliseUkVatNumber(bad)).toBeNull();
    expect(normaliseCustomerVatNumber('FR 12 345678901')).toBe('FR12345678901');
    expect(normaliseCustomerVatNumber('=1+1')).toBeNull();
    expect(normaliseCustomerVatNumber('not a number')).toBeNull();
  });
});

describe('the VAT rate as printed on an invoice and its CSV line', () => {
  it('shows whole and fractional rates without trailing zeros', () => {
    expect(formatVatRate(2000)).toBe('20%');
    expect(formatVatRate(1750)).toBe('17.5%');
    expect(formatVatRate(500)).toBe('5%');
    expect(formatVatRate(1234)).toBe('12.34%');
  });
});
