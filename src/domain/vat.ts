// VAT for invoices (api.md "Documents for business customers"). Prices on the site are what the
// customer pays (public-site.md's price table; the card is charged exactly that), so they are
// VAT-inclusive: an invoice's gross is the price, and its VAT is the VAT fraction of that gross.
//
// The one rounding rule: VAT is worked out once per invoice, from its gross total, in integer
// pence, rounding half a penny up (gross x rate / (100 + rate), then to the nearest penny, .5 up);
// net = gross - VAT, so net + VAT always equals what was paid. Lines get shares of that VAT
// (vatLines below), never a rounding of their own that could add up to a different total.

/** A UK VAT registration number: GB and 9 digits, 12 for a branch, GD/HA and 3 for government and health. */
const UK_VAT_NUMBER = /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/;

/** Normalised (spaces gone, upper case, GB added to bare digits), or null when it is not a UK VAT number. */
export function normaliseUkVatNumber(value: string): string | null {
  const compact = value.replace(/[\s.-]/g, '').toUpperCase();
  const prefixed = /^\d+$/.test(compact) ? `GB${compact}` : compact;
  return UK_VAT_NUMBER.test(prefixed) ? prefixed : null;
}

/** 'GB123456789' as HMRC prints it: 'GB 123 4567 89'. Other forms as they are. */
export function formatUkVatNumber(value: string): string {
  const match = /^GB(\d{3})(\d{4})(\d{2})(\d{3})?$/.exec(value);
  return match ? `GB ${match[1]} ${match[2]} ${match[3]}${match[4] ? ` ${match[4]}` : ''}` : value;
}

/** A customer's VAT number: a UK one, or another country's (two letters, then 2 to 13 letters or digits, mostly digits). */
export function normaliseCustomerVatNumber(value: string): string | null {
  const uk = normaliseUkVatNumber(value);
  if (uk) return uk;
  const compact = value.replace(/[\s.-]/g, '').toUpperCase();
  return /^[A-Z]{2}(?=(?:[A-Z]*\d){2})[A-Z0-9]{2,13}$/.test(compact) ? compact : null;
}

/** VAT_RATE (a percentage, up to two decimals) as basis points: 20 -> 2000, 17.5 -> 1750. */
export function rateToBasisPoints(ratePercent: number): number {
  return Math.round(ratePercent * 100);
}

/** Basis points as the rate printed on an invoice and its CSV line: 2000 -> '20%', 1750 -> '17.5%'. */
export function formatVatRate(basisPoints: number): string {
  return `${(basisPoints / 100).toLocaleString('en-GB', { maximumFractionDigits: 2 })}%`;
}

/** The VAT inside a VAT-inclusive gross amount, in pence, rounded half up (the one rule above). */
export function vatOfGross(grossPence: number, rateBasisPoints: number): number {
  if (!Number.isSafeInteger(grossPence) || grossPence < 0) throw new RangeError(`Not an amount in pence: ${grossPence}`);
  if (rateBasisPoints <= 0) return 0;
  // round(gross x bp / (10000 + bp)) with .5 going up, in integers: floor((2 x gross x bp + d) / 2d).
  const denominator = 10_000 + rateBasisPoints;
  return Math.floor((2 * grossPence * rateBasisPoints + denominator) / (2 * denominator));
}

export interface GrossLine {
  description: string;
  quantity: number;
  grossPence: number;
}

export interface VatLine extends GrossLine {
  /** The gross per unit (quantity 1: the line's gross). */
  unitPence: number;
  netPence: number;
  vatPence: number;
}

export interface VatTotals {
  lines: VatLine[];
  netPence: number;
  vatPence: number;
  grossPence: number;
}

/**
 * An invoice's totals from its VAT-inclusive lines. Without a rate (not VAT registered) VAT is 0
 * and net equals gross. The invoice's VAT is rounded once, from the total; each line's share is
 * its own rounded VAT, with what that leaves over or short given to the largest line, so the
 * lines always add up to the invoice.
 */
export function vatTotals(grossLines: GrossLine[], rateBasisPoints: number | null): VatTotals {
  const grossPence = grossLines.reduce((sum, line) => sum + line.grossPence, 0);
  const vatPence = rateBasisPoints ? vatOfGross(grossPence, rateBasisPoints) : 0;
  const shares = grossLines.map((line) => (rateBasisPoints ? vatOfGross(line.grossPence, rateBasisPoints) : 0));
  const leftOver = vatPence - shares.reduce((sum, share) => sum + share, 0);
  if (leftOver !== 0 && shares.length) {
    const largest = grossLines.reduce((best, line, index) => (line.grossPence > grossLines[best]!.grossPence ? index : best), 0);
    shares[largest]! += leftOver;
  }
  const lines = grossLines.map((line, index) => ({
    ...line,
    unitPence: line.quantity > 0 ? Math.round(line.grossPence / line.quantity) : line.grossPence,
    vatPence: shares[index]!,
    netPence: line.grossPence - shares[index]!,
  }));
  return { lines, netPence: grossPence - vatPence, vatPence, grossPence };
}
