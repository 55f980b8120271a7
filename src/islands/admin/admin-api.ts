import { isChange, markStatsStale } from './frame/stats-store.ts';
import { api, apiPage, ApiError, type ApiOptions, type ApiPage } from '../shared/api.ts';

/** Sent on window when an admin call answers 401: AdminApp asks the person to sign in again. */
export const ADMIN_UNAUTHORISED_EVENT = 'admin:unauthorised';
/** Sent on window when the person signed themself out (My account's "Sign out everywhere"). */
export const ADMIN_SIGNED_OUT_EVENT = 'admin:signed-out';

/**
 * What happens to calls that met an ended session: sent again once the same person has signed
 * in again in place ('retry'), or dropped when the dashboard they belong to is gone (a logout, or
 * someone else signed in: 'abandon').
 */
export type AfterSignIn = 'retry' | 'abandon';
let waiting: ((outcome: AfterSignIn) => void)[] = [];

/** Called by AdminApp once it knows what became of the session (see AfterSignIn). */
export function resumeAfterSignIn(outcome: AfterSignIn): void {
  const resume = waiting;
  waiting = [];
  for (const settle of resume) settle(outcome);
}

/**
 * api() for admin calls. A 401 means the session ended while the dashboard was open (30 idle
 * minutes, 8 hours, or a logout elsewhere): the event makes AdminApp ask for a sign-in over the
 * dashboard, which stays as it was (a note being typed included), and the call waits, then goes
 * again as the person signed back in. So "Add Note" after a lunch break saves the note instead of
 * throwing it away.
 */
export async function adminApi<T = unknown>(url: string, options: ApiOptions = {}): Promise<T> {
  const result = await reportingSignOut(() => api<T>(url, options));
  // A change may move a figure on the stat cards: they fetch theirs again.
  if (isChange(options.method, options.body)) markStatsStale();
  return result;
}

/** apiPage() for the admin's long lists, with the same sign-out handling. */
export async function adminApiPage<T>(url: string, options: ApiOptions = {}): Promise<ApiPage<T>> {
  return reportingSignOut(() => apiPage<T>(url, options));
}

async function reportingSignOut<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401 && typeof window !== 'undefined')) throw error;
    const outcome = new Promise<AfterSignIn>((resolve) => waiting.push(resolve));
    window.dispatchEvent(new Event(ADMIN_UNAUTHORISED_EVENT));
    if ((await outcome) === 'retry') return reportingSignOut(call);
    // The screen that asked is gone (logged out, or another person signed in): nobody reads the
    // answer, so the call never settles instead of raising an error no one can handle.
    return new Promise<T>(() => undefined);
  }
}
