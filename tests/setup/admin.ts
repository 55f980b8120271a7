import { startAdminSession } from '../../src/server/services/staff/admin-sessions.ts';
import { adminCookieName } from '../../src/server/api/middleware/admin-auth.ts';
import { TEST_ORIGIN, type TestContext } from './test-app.ts';

/**
 * A signed-in admin for API tests: a real session row, and the Cookie header the browser would
 * send. (The sign-in route itself has its own tests.)
 */
export async function adminCookie(context: TestContext): Promise<string> {
  const { token } = await startAdminSession(context.deps.db, context.deps.now());
  return `${adminCookieName(context.deps.env.SITE_URL)}=${token}`;
}

/** A same-origin request as the admin dashboard sends it, with a JSON body when one is given. */
export function adminRequest(cookie: string, init: { method?: string; body?: unknown } = {}): RequestInit {
  const headers: Record<string, string> = { Cookie: cookie, Origin: TEST_ORIGIN };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  return {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  };
}
