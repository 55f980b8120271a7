import { atom } from 'nanostores';

/** public-site.md §8–9: at most one toast at a time, shown for 5000 ms. */
export const TOAST_DURATION_MS = 5000;

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant?: 'default' | 'destructive' | 'success';
}

export const $toast = atom<Toast | null>(null);

let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;

/** Shows a toast, replacing any current one. */
export function showToast(toast: Omit<Toast, 'id'>, durationMs = TOAST_DURATION_MS): void {
  clearTimeout(timer);
  const current = { ...toast, id: nextId++ };
  $toast.set(current);
  timer = setTimeout(() => {
    if ($toast.get()?.id === current.id) $toast.set(null);
  }, durationMs);
}

export function dismissToast(): void {
  clearTimeout(timer);
  $toast.set(null);
}
