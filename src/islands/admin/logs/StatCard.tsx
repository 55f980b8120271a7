const NUMBER = new Intl.NumberFormat('en-GB');

export const formatCount = (value: number) => NUMBER.format(value);

/** One headline number with its label; a <dl> pair so the label reads with the value. */
export function StatCard({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="card p-3 sm:p-4">
      <dt className="text-sm text-concrete-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value === undefined ? '…' : formatCount(value)}</dd>
    </div>
  );
}
