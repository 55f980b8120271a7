import { startAdminSession } from '../../src/server/services/staff/admin-sessions.ts';
import { adminCookieName } from '../../src/server/api/middleware/admin-auth.ts';
import { staffUsers } from '../../db/schema.ts';
import type { StaffRole } from '../../src/domain/staff-roles.ts';
import type { StaffUserRow } from '../../src/server/services/staff/staff-users.ts';
import { TEST_ORIGIN, type TestContext } from './test-app.ts';

let people = 0;

/** An active account with the given role (a fresh one each call unless `email` names one). */
export async function staffUser(
  context: TestContext,
  role: StaffRole = 'owner',
  fields: { name?: string; email?: string; passwordHash?: string } = {},
): Promise<StaffUserRow> {
  people += 1;
  const email = fields.email ?? `${role}-${people}-${Math.random().toString(36).slice(2, 8)}@team.example`;
  const [row] = await context.deps.db
    .insert(staffUsers)
    .values({ name: fields.name ?? `Test ${role} ${people}`, email, role, status: 'active', passwordHash: fields.passwordHash ?? null })
    .onConflictDoUpdate({ target: staffUsers.email, set: { role, status: 'active' } })
    .returning();
  return row!;
}

/**
 * A signed-in person for API tests: a real account and session row, and the Cookie header the
 * browser would send. An owner unless a role is given. (The sign-in route itself has its own tests.)
 */
export async function adminCookie(context: TestContext, role: StaffRole | StaffUserRow = 'owner'): Promise<string> {
  const user = typeof role === 'string' ? await staffUser(context, role) : role;
  const { token } = await startAdminSession(context.deps.db, context.deps.now(), user.id);
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
