import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { AppError } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import { adminActor, adminActorName, requireOwner } from '../middleware/admin-auth.ts';
import { STAFF_ROLES } from '../../../domain/staff-roles.ts';
import { acceptStaffLink, inspectStaffLink, sendStaffLink } from '../../services/staff/staff-links.ts';
import { createInvitedUser, findUser, hasSecondFactor, listUsers, updateUser, USER_NOT_FOUND, userView } from '../../services/staff/staff-users.ts';
import { signIn } from './admin-auth.ts';
import { afterResponse } from '../background.ts';

export const staffNameSchema = z.string().trim().min(1, 'Name is required').max(100, 'Name is at most 100 characters');
const roleSchema = z.enum(STAFF_ROLES, { message: 'Role must be owner, staff or viewer' });

const inviteSchema = z.object({
  name: staffNameSchema,
  email: z.string().trim().toLowerCase().email('Valid email is required').max(320),
  role: roleSchema,
});

const updateSchema = z
  .object({ role: roleSchema.optional(), status: z.enum(['active', 'deactivated']).optional(), name: staffNameSchema.optional() })
  .strict();

const tokenSchema = z.object({ token: z.string().max(100) });
const acceptSchema = z.object({ token: z.string().max(100), password: z.string().max(1024, 'Use at most 1024 characters.') });

function userId(c: Context<AppEnv>): number {
  const id = Number(c.req.param('id'));
  if (!Number.isInteger(id) || id < 1 || id > 2 ** 31 - 1) throw new AppError(404, USER_NOT_FOUND);
  return id;
}

const actorOf = (c: Context<AppEnv>) => ({ userId: adminActor(c), name: adminActorName(c) });

/** The Team tab (owner only): accounts, invitations, reset links, roles, deactivation. */
export const adminUserRoutes = new Hono<AppEnv>()
  .get('/users', requireOwner, async (c) => c.json(await listUsers(c.get('deps').db)))
  .post('/users', requireOwner, async (c) => {
    const deps = c.get('deps');
    const input = await readJson(c, inviteSchema);
    const user = await createInvitedUser(deps.db, input, adminActor(c), deps.now());
    const { deliver } = await sendStaffLink(deps, user, 'invite', actorOf(c));
    afterResponse(c, deliver);
    return c.json(await userView(deps.db, user), 201);
  })
  .patch('/users/:id', requireOwner, async (c) => {
    const deps = c.get('deps');
    const changes = await readJson(c, updateSchema);
    const user = await updateUser(deps.db, userId(c), changes, adminActor(c), deps.now());
    return c.json(await userView(deps.db, user));
  })
  // Re-sending an invitation writes a new link; the older one stops working.
  .post('/users/:id/invitation', requireOwner, async (c) => {
    const deps = c.get('deps');
    const user = await findUser(deps.db, userId(c));
    if (!user) throw new AppError(404, USER_NOT_FOUND);
    if (user.status !== 'invited') throw new AppError(409, 'This person has already accepted; send a password reset instead.');
    afterResponse(c, (await sendStaffLink(deps, user, 'invite', actorOf(c))).deliver);
    return c.body(null, 202);
  })
  .post('/users/:id/password-reset', requireOwner, async (c) => {
    const deps = c.get('deps');
    const user = await findUser(deps.db, userId(c));
    if (!user) throw new AppError(404, USER_NOT_FOUND);
    afterResponse(c, (await sendStaffLink(deps, user, user.status === 'invited' ? 'invite' : 'reset', actorOf(c))).deliver);
    return c.body(null, 202);
  })
  // Open to anyone with the link (the token is the proof); 410 for a used or expired one.
  .post('/invitations/inspect', async (c) => {
    const { token } = await readJson(c, tokenSchema);
    const { db, now } = c.get('deps');
    return c.json(await inspectStaffLink(db, token, now()));
  })
  .post('/invitations/accept', async (c) => {
    const { token, password } = await readJson(c, acceptSchema);
    const { db, now } = c.get('deps');
    const user = await acceptStaffLink(db, token, password, now());
    // With a second factor the link sets the password and nothing else: the person then signs
    // in as usual, code or passkey included (api.md "Second factor and links").
    if (await hasSecondFactor(db, user)) return c.body(null, 204);
    await signIn(c, user, 'invitation link');
    return c.body(null, 204);
  });
