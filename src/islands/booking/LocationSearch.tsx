import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { INPUT_CLASS } from './Field.tsx';
import { SEARCH_MIN_LENGTH, searchPlaces, type Place } from './geocode.ts';

// The map's search box as an ARIA combobox with a listbox of places: type, move with the arrow
// keys, Enter picks the highlighted place (or the first one). Someone without a mouse can add
// every location from here (public-site.md §4 "Map": "The search box selects a place").

const SEARCH_DELAY_MS = 350;

type SearchState =
  | { kind: 'idle' }
  | { kind: 'searching'; query: string }
  | { kind: 'results'; query: string; places: Place[] }
  | { kind: 'failed'; query: string };

export interface LocationSearchProps {
  id: string;
  describedBy?: string;
  isInvalid?: boolean;
  onPick: (place: Place) => void;
}

export function LocationSearch({ id, describedBy, isInvalid, onPick }: LocationSearchProps) {
  const listId = useId();
  const statusId = useId();
  const [query, setQuery] = useState('');
  const [state, setState] = useState<SearchState>({ kind: 'idle' });
  const [activeIndex, setActiveIndex] = useState(-1);
  const [isOpen, setIsOpen] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const pendingPick = useRef(false);

  const places = state.kind === 'results' && state.query === query.trim() ? state.places : [];
  const isExpanded = isOpen && places.length > 0;

  async function runSearch(text: string): Promise<Place[] | null> {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setState({ kind: 'searching', query: text });
    try {
      const found = await searchPlaces(text, current.signal);
      if (current.signal.aborted) return null;
      setState({ kind: 'results', query: text, places: found });
      setActiveIndex(-1);
      return found;
    } catch {
      if (current.signal.aborted) return null;
      setState({ kind: 'failed', query: text });
      return null;
    }
  }

  // Search as the person types, after a short pause.
  useEffect(() => {
    const text = query.trim();
    if (text.length < SEARCH_MIN_LENGTH) {
      controller.current?.abort();
      setState({ kind: 'idle' });
      return;
    }
    if (state.kind !== 'idle' && state.query === text) return;
    // Enter may already be searching for this text to pick its first place; a second search
    // would abort that one and the pick would be lost.
    const timer = setTimeout(() => {
      if (!pendingPick.current) void runSearch(text);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // runSearch and state are read when the pause ends; only a new query restarts the timer.
  }, [query]);

  useEffect(() => () => controller.current?.abort(), []);

  function pick(place: Place) {
    onPick(place);
    setQuery('');
    setState({ kind: 'idle' });
    setActiveIndex(-1);
    setIsOpen(false);
  }

  async function pickFromEnter() {
    const text = query.trim();
    if (text.length < SEARCH_MIN_LENGTH || pendingPick.current) return;
    const chosen = places[activeIndex] ?? places[0];
    if (chosen) return pick(chosen);
    // Enter before the results arrived: search now and take the first place.
    pendingPick.current = true;
    try {
      const found = await runSearch(text);
      if (found?.[0]) pick(found[0]);
      else setIsOpen(true);
    } finally {
      pendingPick.current = false;
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'Enter':
        // Never submit the booking from the search box.
        event.preventDefault();
        void pickFromEnter();
        break;
      case 'ArrowDown':
        if (!places.length) return;
        event.preventDefault();
        setIsOpen(true);
        setActiveIndex((index) => (index + 1) % places.length);
        break;
      case 'ArrowUp':
        if (!places.length) return;
        event.preventDefault();
        setIsOpen(true);
        setActiveIndex((index) => (index <= 0 ? places.length - 1 : index - 1));
        break;
      case 'Escape':
        if (isExpanded) {
          event.preventDefault();
          setIsOpen(false);
          setActiveIndex(-1);
        } else if (query) {
          event.preventDefault();
          setQuery('');
        }
        break;
    }
  }

  const status =
    state.kind === 'searching'
      ? 'Searching…'
      : state.kind === 'failed'
        ? 'Search is not available right now. Click the map instead, or move it with the arrow keys and use Add a pin at the map centre.'
        : state.kind === 'results' && state.query === query.trim()
          ? places.length === 0
            ? 'No places found. Try a street and town, or add a pin on the map.'
            : `${places.length} ${places.length === 1 ? 'place' : 'places'} found. Use the up and down keys to choose, Enter to add.`
          : '';

  return (
    <div className="relative">
      <div className="relative">
        <svg
          className="pointer-events-none absolute top-1/2 left-4 -translate-y-1/2 text-concrete-500"
          width="20"
          height="20"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          aria-hidden="true"
        >
          <circle cx="11" cy="11" r="7" />
          <path d="M20 20l-3.5-3.5" />
        </svg>
        <input
          id={id}
          type="text"
          role="combobox"
          autoComplete="off"
          enterKeyHint="search"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={isExpanded}
          aria-controls={listId}
          aria-activedescendant={isExpanded && activeIndex >= 0 ? `${listId}-${activeIndex}` : undefined}
          aria-describedby={[describedBy, statusId].filter(Boolean).join(' ')}
          aria-invalid={isInvalid || undefined}
          value={query}
          placeholder="Street, postcode or place"
          className={`${INPUT_CLASS} pl-11`}
          onChange={(event) => {
            setQuery(event.target.value);
            setIsOpen(true);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setIsOpen(false)}
          onFocus={() => setIsOpen(true)}
        />
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label="Places"
        hidden={!isExpanded}
        className="absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-auto rounded-xl border border-concrete-200 bg-white py-1 shadow-[var(--shadow-card)]"
      >
        {places.map((place, index) => (
          <li
            key={`${place.lat},${place.lng},${index}`}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === activeIndex}
            className={`flex min-h-11 cursor-pointer items-center px-4 py-2 text-[0.95rem] ${
              index === activeIndex ? 'bg-accent-50 text-ink' : 'text-concrete-800 hover:bg-concrete-50'
            }`}
            // Keep focus in the input so the combobox stays open while the pointer chooses.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(place)}
          >
            {place.address}
          </li>
        ))}
      </ul>
      <p id={statusId} role="status" className={status ? 'mt-2 text-sm text-concrete-600' : 'sr-only'}>
        {status}
      </p>
    </div>
  );
}
