import { lazy, Suspense, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { tabsFor } from './tabs/registry.ts';
import type { StaffRole } from '../../domain/staff-roles.ts';

/**
 * The WAI-ARIA tabs pattern: one tab stop for the list, arrow keys (and Home/End) move between
 * tabs and open them, each panel is labelled by its tab. Panels load on first opening.
 */
export function AdminTabs({ role }: { role: StaffRole }) {
  const visibleTabs = useMemo(() => tabsFor(role), [role]);
  const [active, setActive] = useState(visibleTabs[0]!.id);
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  const panels = useMemo(() => Object.fromEntries(visibleTabs.map((tab) => [tab.id, lazy(tab.load)])), [visibleTabs]);

  const select = (index: number) => {
    const tab = visibleTabs[(index + visibleTabs.length) % visibleTabs.length]!;
    setActive(tab.id);
    tabRefs.current[tab.id]?.focus();
  };
  // The chosen tab scrolls into the strip's view (by keyboard, or opened off-screen).
  useEffect(() => {
    tabRefs.current[active]?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [active]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = visibleTabs.findIndex((tab) => tab.id === active);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: visibleTabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(moves[event.key]!);
  };

  const Panel = panels[active]!;
  return (
    <div className="mt-4 sm:mt-6">
      <div
        role="tablist"
        aria-label="Dashboard sections"
        onKeyDown={onKeyDown}
        // One row at every width, however many tabs there are (12 and more): on a phone it
        // scrolls sideways (the strip runs to the screen's edge, so a tab cut there shows more wait), from 640 px the underlined
        // strip. Arrow keys, Home and End move through every tab and bring it into view.
        className="-mx-4 flex gap-1 overflow-x-auto overscroll-x-contain px-4 [scrollbar-width:none] sm:mx-0 sm:border-b sm:border-concrete-200 sm:px-0"
      >
        {visibleTabs.map((tab) => {
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
                'min-h-11 shrink-0 rounded-xl px-3 text-sm font-semibold whitespace-nowrap sm:-mb-px sm:rounded-none sm:border-b-2 sm:px-4',
                selected
                  ? 'bg-ink text-paper sm:border-accent-600 sm:bg-transparent sm:text-ink'
                  : 'text-concrete-600 hover:text-ink sm:border-transparent',
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
