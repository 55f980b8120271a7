import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { tabsFor } from './tabs/registry.ts';
import type { StaffRole } from '../../domain/staff-roles.ts';
import { tabKeyTarget } from '../shared/tab-keys.ts';

/** The arrows' width in px (w-12). */
const HINT_WIDTH = 48;
const HINT = 'absolute inset-y-0 flex w-12 cursor-pointer items-center from-paper via-paper/90 to-transparent sm:bottom-px';
const ARROW = 'flex h-7 w-7 items-center justify-center rounded-full border border-concrete-200 bg-paper text-lg leading-none font-semibold text-ink shadow-sm';

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
    const tab = visibleTabs[index]!;
    setActive(tab.id);
    tabRefs.current[tab.id]?.focus();
  };
  // Where the strip is cut, a fade and an arrow on that side say more tabs follow (a phone gives
  // a scrolling row no scrollbar); tapping the arrow scrolls the strip on.
  const stripRef = useRef<HTMLDivElement | null>(null);
  // The chosen tab scrolls into the strip's view (by keyboard, or opened off-screen), clear of the
  // arrows; the first and the last take the strip to its ends, where no arrow shows.
  useEffect(() => {
    const strip = stripRef.current;
    const tab = tabRefs.current[active];
    if (!strip || !tab || strip.scrollWidth <= strip.clientWidth) return;
    const index = visibleTabs.findIndex((item) => item.id === active);
    const start = tab.offsetLeft; // the strip is the tabs' offset parent: its own, unscrolled coordinates
    const end = start + tab.offsetWidth;
    const left =
      index === 0 ? 0
      : index === visibleTabs.length - 1 ? strip.scrollWidth
      : start - HINT_WIDTH < strip.scrollLeft ? start - HINT_WIDTH
      : end + HINT_WIDTH > strip.scrollLeft + strip.clientWidth ? end + HINT_WIDTH - strip.clientWidth
      : null;
    if (left !== null) strip.scrollTo({ left });
  }, [active, visibleTabs]);
  const [more, setMore] = useState({ before: false, after: false });
  const measure = useCallback(() => {
    const strip = stripRef.current;
    if (!strip) return;
    const before = strip.scrollLeft > 1;
    const after = strip.scrollLeft + strip.clientWidth < strip.scrollWidth - 1;
    setMore((current) => (current.before === before && current.after === after ? current : { before, after }));
  }, []);
  useEffect(() => {
    const strip = stripRef.current;
    if (!strip) return;
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    // The strip's width, and each tab's (a web font arriving widens them): either may cut the row.
    observer?.observe(strip);
    for (const tab of strip.children) observer?.observe(tab);
    return () => observer?.disconnect();
  }, [measure]);
  const scrollStrip = (direction: 1 | -1) => {
    const strip = stripRef.current;
    strip?.scrollBy({ left: direction * strip.clientWidth * 0.7, behavior: 'smooth' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = tabKeyTarget(event, visibleTabs.findIndex((tab) => tab.id === active), visibleTabs.length);
    if (next !== null) select(next);
  };

  const Panel = panels[active]!;
  return (
    <div className="mt-4 sm:mt-6">
      <div className="relative -mx-4 sm:mx-0">
        <div
          ref={stripRef}
          role="tablist"
          aria-label="Dashboard sections"
          onKeyDown={onKeyDown}
          onScroll={measure}
          // One row at every width, however many tabs there are (12 and more): at 1280 px every
          // tab fits; narrower, the strip scrolls sideways (on a phone it runs to the screen's edge)
          // with the arrows below saying so. Arrow keys, Home and End move through every tab and
          // bring it into view.
          className="relative flex gap-1 overflow-x-auto overscroll-x-contain px-4 [scrollbar-width:none] sm:border-b sm:border-concrete-200 sm:px-0"
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
                  'min-h-11 shrink-0 rounded-xl px-3 text-sm font-semibold whitespace-nowrap sm:-mb-px sm:rounded-none sm:border-b-2 sm:px-4 lg:px-3',
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
        {/* Decoration for sighted people (the tabs themselves are reached by arrow keys): hidden from screen readers. */}
        {more.before && (
          <div aria-hidden="true" data-testid="tabs-more-before" onClick={() => scrollStrip(-1)} className={`${HINT} left-0 justify-start bg-linear-to-r pl-1`}>
            <span className={ARROW}>‹</span>
          </div>
        )}
        {more.after && (
          <div aria-hidden="true" data-testid="tabs-more-after" onClick={() => scrollStrip(1)} className={`${HINT} right-0 justify-end bg-linear-to-l pr-1`}>
            <span className={ARROW}>›</span>
          </div>
        )}
      </div>
      <div role="tabpanel" id={`panel-${active}`} aria-labelledby={`tab-${active}`} tabIndex={0} className="pt-6 focus:outline-none">
        <Suspense fallback={<p className="text-concrete-600" role="status">Loading…</p>}>
          <Panel />
        </Suspense>
      </div>
    </div>
  );
}
