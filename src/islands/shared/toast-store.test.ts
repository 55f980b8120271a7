import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $toast, dismissToast, showToast, TOAST_DURATION_MS } from './toast-store.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  dismissToast();
  vi.useRealTimers();
});

describe('toasts (public-site.md §8–9: one at a time, 5000 ms)', () => {
  it('shows a toast for 5000 ms, then hides it', () => {
    showToast({ title: 'File uploaded', description: 'logo.png has been uploaded successfully' });
    expect($toast.get()?.title).toBe('File uploaded');
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect($toast.get()?.title).toBe('File uploaded');
    vi.advanceTimersByTime(1);
    expect($toast.get()).toBeNull();
    expect(TOAST_DURATION_MS).toBe(5000);
  });

  it('replaces the current toast with the next, which then gets its own full 5000 ms', () => {
    showToast({ title: 'File uploaded' });
    vi.advanceTimersByTime(4000);
    showToast({ title: 'Upload failed', variant: 'destructive' });
    expect($toast.get()).toMatchObject({ title: 'Upload failed', variant: 'destructive' });
    vi.advanceTimersByTime(4000);
    expect($toast.get()?.title).toBe('Upload failed');
    vi.advanceTimersByTime(1000);
    expect($toast.get()).toBeNull();
  });

  it('closes at once when dismissed', () => {
    showToast({ title: 'Booking Failed' });
    dismissToast();
    expect($toast.get()).toBeNull();
  });
});
