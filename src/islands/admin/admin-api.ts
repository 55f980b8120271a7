import { isChange, markStatsStale } from './frame/stats-store.ts';
import { api, apiPage, ApiError, type ApiOptions, type ApiPage } from '../shared/api.ts';

/** Sent on window when an admin call answers 401: AdminApp shows the gate again. */
export const ADMIN_UNAUTHORISED_EVENT = 'admin:unauthorised';

/**
 * api() for admin calls. A 401 means the session ended while the dashboard was open (30 idle
 * minutes, 8 hours, or a logout elsewhere): the event brings back the gate with one toast, and
 * the error is still thrown so the caller stops what it was doing.
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
    if (error instanceof ApiError && error.status === 401 && typeof window !== 'undefined') {
      window.dispatchEvent(new Event(ADMIN_UNAUTHORISED_EVENT));
    }
    throw error;
  }
}
