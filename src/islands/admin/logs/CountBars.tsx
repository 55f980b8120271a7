import { formatCount } from './StatCard.tsx';

export interface CountItem {
  label: string;
  count: number;
}

/**
 * A ranked list with each count in words and a small bar for the eye. The bar is decoration
 * (aria-hidden): the number beside it carries the meaning.
 */
export function CountBars({ title, items, empty, id }: { title: string; items: CountItem[] | undefined; empty: string; id: string }) {
  const largest = Math.max(1, ...(items ?? []).map((item) => item.count));
  return (
    <section aria-labelledby={id} className="card p-4">
      <h3 id={id} className="text-base font-semibold">
        {title}
      </h3>
      {items === undefined ? (
        <p className="mt-3 text-sm text-concrete-600">Loading…</p>
      ) : items.length === 0 ? (
        <p className="mt-3 text-sm text-concrete-600">{empty}</p>
      ) : (
        <ul className="mt-3 grid gap-2">
          {items.map((item) => (
            <li key={item.label} className="text-sm">
              <div className="flex items-baseline justify-between gap-3">
                <span className="min-w-0 truncate" title={item.label}>
                  {item.label}
                </span>
                <span className="font-semibold tabular-nums">{formatCount(item.count)}</span>
              </div>
              <div aria-hidden="true" className="mt-1 h-1.5 rounded-full bg-concrete-100">
                <div className="h-1.5 rounded-full bg-accent-500" style={{ width: `${(item.count / largest) * 100}%` }} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
