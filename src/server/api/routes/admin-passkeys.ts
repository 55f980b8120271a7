import { Hono } from 'hono';
import * as z from 'zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AppEnv } from '../../app/request.ts';
import { readJson } from '../middleware/body.ts';
import { requireSignedIn } from '../middleware/admin-auth.ts';
import { authenticationOptions, registerPasskey, registrationOptions, verifyPasskeySignIn } from '../../services/staff/passkeys.ts';
import { signIn } from './admin-auth.ts';
import { AppError } from '../../app/errors.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { clientKey } from '../../services/limits/client-info.ts';
import { writeChannelLog } from '../../services/messages/channel-log.ts';

const LOGIN_OPTIONS_LIMIT = { name: 'passkey-options', limit: 30, windowSeconds: 15 * 60 };

// The browser's WebAuthn answers are checked by @simplewebauthn/server; here only their outline.
const credentialResponse = z
  .object({ id: z.string().max(1024), rawId: z.string().max(1024), type: z.literal('public-key'), response: z.record(z.string(), z.unknown()) })
  .passthrough();

const registerSchema = z.object({
  name: z.string().trim().min(1, 'Give the passkey a name').max(60, 'Name is at most 60 characters'),
  response: credentialResponse,
});

/** api.md "Staff accounts": passkey registration (signed in) and one-tap sign-in (anyone). */
export const adminPasskeyRoutes = new Hono<AppEnv>()
  .post('/register/options', requireSignedIn, async (c) => {
    const { db, env, now } = c.get('deps');
    return c.json(await registrationOptions(db, env.SITE_URL, c.get('adminUser')!, now()));
  })
  .post('/register', requireSignedIn, async (c) => {
    const { db, env, now } = c.get('deps');
    const body = await readJson(c, registerSchema);
    const passkey = await registerPasskey(
      db,
      env.SITE_URL,
      c.get('adminUser')!,
      { name: body.name, response: body.response as unknown as RegistrationResponseJSON },
      now(),
    );
    return c.json(passkey, 201);
  })
  // Anyone may ask, and each answer writes a challenge row: a per-client limit (api.md), far above
  // what a person signing in needs.
  .post('/login/options', rateLimit(LOGIN_OPTIONS_LIMIT), async (c) => {
    const { db, env, now } = c.get('deps');
    return c.json(await authenticationOptions(db, env.SITE_URL, now()));
  })
  .post('/login', async (c) => {
    const { db, env, now } = c.get('deps');
    const body = await readJson(c, credentialResponse);
    const user = await verifyPasskeySignIn(db, env.SITE_URL, body as unknown as AuthenticationResponseJSON, now()).catch(async (error: unknown) => {
      // A refused passkey is logged as a refused password is (the Logs show attempts on accounts).
      if (error instanceof AppError) {
        await writeChannelLog(db, {
          channel: 'admin',
          action: 'login_failed',
          severity: 'warning',
          ipAddress: await clientKey(c),
          details: `Passkey sign-in refused: ${error.message}`,
        });
      }
      throw error;
    });
    await signIn(c, user, 'passkey');
    return c.body(null, 204);
  });
