/** Latency figures from a list of durations in milliseconds (nearest-rank percentiles). */
export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const round = (value: number) => Math.round(value * 10) / 10;

export function summarise(durations: number[]): LatencySummary {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 0.5)),
    p95: round(percentile(sorted, 0.95)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

export function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 0.5);
}

/** A plain text table: the first row is the header; numbers are right-aligned. */
export function table(rows: (string | number)[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => String(row[column] ?? '').length)));
  const line = (row: (string | number)[]) =>
    row.map((cell, column) => (typeof cell === 'number' ? String(cell).padStart(widths[column]!) : String(cell).padEnd(widths[column]!))).join('  ');
  return [line(rows[0]!), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** bench/results/<name>-<YYYY-MM-DD>.json */
export function resultFileName(name: string, now = new Date()): string {
  return `${name}-${now.toISOString().slice(0, 10)}.json`;
}
