import { lazy, Suspense, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { ADMIN_TABS } from './tabs/registry.ts';

/**
 * The WAI-ARIA tabs pattern: one tab stop for the list, arrow keys (and Home/End) move between
 * tabs and open them, each panel is labelled by its tab. Panels load on first opening.
 */
export function AdminTabs() {
  const [active, setActive] = useState(ADMIN_TABS[0]!.id);
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  const panels = useMemo(() => Object.fromEntries(ADMIN_TABS.map((tab) => [tab.id, lazy(tab.load)])), []);

  const select = (index: number) => {
    const tab = ADMIN_TABS[(index + ADMIN_TABS.length) % ADMIN_TABS.length]!;
    setActive(tab.id);
    tabRefs.current[tab.id]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = ADMIN_TABS.findIndex((tab) => tab.id === active);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: ADMIN_TABS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(moves[event.key]!);
  };

  const Panel = panels[active]!;
  return (
    <div className="mt-8">
      <div
        role="tablist"
        aria-label="Dashboard sections"
        onKeyDown={onKeyDown}
        className="-mx-5 flex gap-1 overflow-x-auto border-b border-concrete-200 px-5 sm:mx-0 sm:px-0"
      >
        {ADMIN_TABS.map((tab) => {
          const selected = tab.id === active;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                tabRefs.current[tab.id] = element;
              }}
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-selected={selected}
              aria-controls={`panel-${tab.id}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => setActive(tab.id)}
              className={[
                '-mb-px min-h-11 shrink-0 border-b-2 px-4 text-sm font-semibold whitespace-nowrap',
                selected ? 'border-accent-600 text-ink' : 'border-transparent text-concrete-600 hover:text-ink',
              ].join(' ')}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`panel-${active}`} aria-labelledby={`tab-${active}`} tabIndex={0} className="pt-6 focus:outline-none">
        <Suspense fallback={<p className="text-concrete-600" role="status">Loading…</p>}>
          <Panel />
        </Suspense>
      </div>
    </div>
  );
}
