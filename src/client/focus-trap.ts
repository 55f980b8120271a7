/**
 * A modal <dialog> makes the page inert, but Tab can still leave for the browser's own UI. Called
 * on a keydown inside the dialog, this wraps Tab from the last focusable element to the first
 * (and Shift+Tab from the first to the last), so keyboard focus cycles inside. Used by the
 * dashboard's dialogs (islands/admin/projects/Modal.tsx) and the tracking page's proof and photo
 * viewers (islands/tracking/ViewerDialog.tsx). The site's drawer (frame.ts) keeps its
 * own few lines: importing this module from both made the bundler split it into a chunk of its
 * own, one more script on every public page (tests/e2e/budgets.spec.ts counts them).
 */
export function keepTabInside(
  container: ParentNode,
  event: { key: string; shiftKey: boolean; preventDefault(): void },
  focusableSelector: string,
): void {
  if (event.key !== 'Tab') return;
  const focusable = [...container.querySelectorAll<HTMLElement>(focusableSelector)];
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
