import { useState, type FormEvent } from 'react';
import { INPUT_CLASS } from '../../shared/FormField.tsx';
import { CHANNELS, LIMITS, NO_FILTERS, SEVERITIES, type LogFilters as Filters } from './log-api.ts';

// 16 px text on phones, so focusing a filter does not zoom the page; denser from 640 px.
const CONTROL = `${INPUT_CLASS.replace('min-h-12', 'min-h-11').replace('py-3', 'py-2').replace('px-4', 'px-3').replace('text-base', 'text-base sm:text-sm')} mt-1`;
const LABEL = 'block text-sm font-semibold';

/**
 * The spec's filters. Selects apply at once; the text fields apply on Enter or "Apply", so a
 * half-typed word does not fire a request per keystroke.
 */
export function LogFilters({ value, onChange }: { value: Filters; onChange: (next: Filters) => void }) {
  const [draft, setDraft] = useState(value);

  const set = <K extends keyof Filters>(key: K, next: Filters[K], applyNow: boolean) => {
    const updated = { ...draft, [key]: next };
    setDraft(updated);
    if (applyNow) onChange(updated);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(draft);
  };

  return (
    <form role="search" aria-label="Filter logs" onSubmit={submit} className="card grid grid-cols-2 items-end gap-3 p-4 lg:grid-cols-6">
      <div>
        <label htmlFor="logs-channel" className={LABEL}>
          Channel
        </label>
        <select id="logs-channel" className={CONTROL} value={draft.channel} onChange={(event) => set('channel', event.target.value as Filters['channel'], true)}>
          <option value="">All channels</option>
          {CHANNELS.map((channel) => (
            <option key={channel} value={channel}>
              {channel}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="logs-severity" className={LABEL}>
          Severity
        </label>
        <select id="logs-severity" className={CONTROL} value={draft.severity} onChange={(event) => set('severity', event.target.value as Filters['severity'], true)}>
          <option value="">All severities</option>
          {SEVERITIES.map((severity) => (
            <option key={severity} value={severity}>
              {severity}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="logs-action" className={LABEL}>
          Action
        </label>
        <input id="logs-action" className={CONTROL} value={draft.action} placeholder="e.g. booking_created" spellCheck={false} onChange={(event) => set('action', event.target.value, false)} />
      </div>
      <div>
        <label htmlFor="logs-entity-type" className={LABEL}>
          Entity type
        </label>
        <input id="logs-entity-type" className={CONTROL} value={draft.entityType} placeholder="e.g. booking" spellCheck={false} onChange={(event) => set('entityType', event.target.value, false)} />
      </div>
      <div>
        <label htmlFor="logs-search" className={LABEL}>
          Search
        </label>
        <input id="logs-search" type="search" className={CONTROL} value={draft.search} onChange={(event) => set('search', event.target.value, false)} />
      </div>
      <div>
        <label htmlFor="logs-limit" className={LABEL}>
          Limit
        </label>
        <select id="logs-limit" className={CONTROL} value={draft.limit} onChange={(event) => set('limit', Number(event.target.value) as Filters['limit'], true)}>
          {LIMITS.map((limit) => (
            <option key={limit} value={limit}>
              {limit}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-6">
        <button type="submit" className="btn-primary min-h-11 px-5 py-2 text-sm">
          Apply filters
        </button>
        <button
          type="button"
          className="btn-secondary min-h-11 px-5 py-2 text-sm"
          onClick={() => {
            setDraft(NO_FILTERS);
            onChange(NO_FILTERS);
          }}
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}
