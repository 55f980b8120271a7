import { api, ApiError, type ApiOptions } from '../shared/api.ts';

/** Sent on window when an admin call answers 401: AdminApp shows the gate again. */
export const ADMIN_UNAUTHORISED_EVENT = 'admin:unauthorised';

/**
 * api() for admin calls. A 401 means the session ended while the dashboard was open (30 idle
 * minutes, 8 hours, or a logout elsewhere): the event brings back the gate with one toast, and
 * the error is still thrown so the caller stops what it was doing.
 */
export async function adminApi<T = unknown>(url: string, options: ApiOptions = {}): Promise<T> {
  try {
    return await api<T>(url, options);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && typeof window !== 'undefined') {
      window.dispatchEvent(new Event(ADMIN_UNAUTHORISED_EVENT));
    }
    throw error;
  }
}
