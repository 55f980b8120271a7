import { Component, lazy, type ComponentType, type ReactNode } from 'react';

const sheets = new Map<string, Promise<void>>();

/**
 * Adds `<link rel="stylesheet" href>` to the head once and resolves when it has loaded, so a lazily
 * loaded widget's CSS stays off the page's critical path yet is in place before the widget draws.
 * Every caller of one href shares one promise. A sheet that fails to load rejects, and its link is
 * removed so that a later call tries again.
 */
export function loadStylesheet(href: string): Promise<void> {
  const known = sheets.get(href);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener(
      'error',
      () => {
        link.remove();
        sheets.delete(href);
        reject(new Error(`Stylesheet ${href} did not load`));
      },
      { once: true },
    );
    document.head.append(link);
  });
  sheets.set(href, loading);
  return loading;
}

/**
 * React.lazy for a widget that needs its own stylesheet (Leaflet's maps): the module and the sheet
 * load together, and the widget draws only when both are in. Either failing rejects, for a
 * MapBoundary to answer: an unstyled Leaflet map is a heap of loose tiles, worse than no map.
 */
export function lazyWithStylesheet<P>(load: () => Promise<{ default: ComponentType<P> }>, href: string) {
  return lazy(() => Promise.all([load(), loadStylesheet(href)]).then(([module]) => module));
}

/** Shows `fallback` instead of a map that could not load; the rest of the island carries on. */
export class MapBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: Error) {
    console.error('Map failed to load', error);
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
