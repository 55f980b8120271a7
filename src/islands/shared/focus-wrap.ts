import type { KeyboardEvent } from 'react';

/**
 * Keeps Tab inside a modal: from the last control to the first and back. A modal <dialog> makes
 * the page behind inert, but Tab would otherwise leave for the browser's own toolbar.
 */
export function wrapTabKey(event: KeyboardEvent, container: HTMLElement | null): void {
  if (event.key !== 'Tab' || !container) return;
  const focusable = [...container.querySelectorAll<HTMLElement>('button:not([disabled]), a[href]')];
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last?.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first?.focus();
  }
}
