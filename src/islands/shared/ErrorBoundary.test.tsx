// @vitest-environment happy-dom
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withErrorBoundary } from './ErrorBoundary.tsx';

// React warns when act() is used outside a test environment it recognises.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Whether the island fails when it renders: a transient problem the test can clear.
let isBroken = false;
function Flaky() {
  const [clicks, setClicks] = useState(0);
  if (isBroken) throw new Error('island broke');
  return (
    <button type="button" onClick={() => setClicks(clicks + 1)}>
      Booking form ({clicks})
    </button>
  );
}
const GuardedFlaky = withErrorBoundary(Flaky);

const button = (name: string) =>
  [...document.querySelectorAll('button')].find((element) => element.textContent?.trim() === name);

describe('the error fallback around islands (public-site.md §8)', () => {
  let root: Root;
  let container: HTMLElement;

  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });

  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    vi.restoreAllMocks();
  });

  it('replaces a failed island with the spec message, and Try Again renders it afresh', () => {
    isBroken = true;
    act(() => root.render(<GuardedFlaky />));
    const alert = container.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain('Something went wrong');
    expect(alert?.textContent).toContain(
      'We encountered an unexpected error. Please try refreshing the page or contact support if the problem persists',
    );
    expect(button('Booking form (0)')).toBeUndefined();

    isBroken = false;
    act(() => button('Try Again')!.click());
    expect(container.querySelector('[role="alert"]')).toBeNull();
    expect(button('Booking form (0)')).toBeDefined();
  });

  it('shows the fallback again when the island keeps failing, and Refresh Page reloads', () => {
    isBroken = true;
    act(() => root.render(<GuardedFlaky />));
    act(() => button('Try Again')!.click());
    expect(container.querySelector('[role="alert"]')?.textContent).toContain('Something went wrong');

    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as Location);
    act(() => button('Refresh Page')!.click());
    expect(reload).toHaveBeenCalledOnce();
  });
});
