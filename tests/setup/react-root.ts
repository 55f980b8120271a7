import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

// Component tests (happy-dom): a fresh React root in the document for each test, unmounted after.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface TestRoot {
  container: HTMLElement;
  render(node: ReactNode): void;
}

/** Call inside a describe(): the returned object's container and render work in each test. */
export function useTestRoot(): TestRoot {
  let root: Root;
  const handle = {
    container: null as unknown as HTMLElement,
    render: (node: ReactNode) => act(() => root.render(node)),
  };
  beforeEach(() => {
    handle.container = document.createElement('div');
    document.body.append(handle.container);
    root = createRoot(handle.container);
  });
  afterEach(() => {
    act(() => root.unmount());
    handle.container.remove();
  });
  return handle;
}
