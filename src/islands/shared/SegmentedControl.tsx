/**
 * A few mutually exclusive views as one row of toggle buttons (aria-pressed), each a 44 px target:
 * the Bookings tab's Active/Archived/All and the crew panel's Today/Tomorrow.
 */
export function SegmentedControl<T extends { label: string }>({
  label,
  options,
  selected,
  onSelect,
}: {
  /** The group's accessible name. */
  label: string;
  options: readonly T[];
  selected: T;
  onSelect: (option: T) => void;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex w-fit rounded-xl border border-concrete-200 bg-white p-1">
      {options.map((option) => (
        <button
          key={option.label}
          type="button"
          aria-pressed={option.label === selected.label}
          onClick={() => onSelect(option)}
          className={[
            'min-h-11 rounded-lg px-4 text-sm font-semibold',
            option.label === selected.label ? 'bg-ink text-white' : 'text-concrete-700 hover:text-ink',
          ].join(' ')}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
