import type { staffUsers } from '../../../db/schema.ts';
import type { AdminSession } from '../services/staff/admin-sessions.ts';
import type { AppDeps } from './deps.ts';

/**
 * What one request carries, typed for Hono: the app's dependencies, the request id, the signed-in
 * person once looked up, and the platform's bindings. Services that judge a request by its client
 * (limits, known devices) read it through this type; nothing here depends on the HTTP layer.
 */
export type AppEnv = {
  Variables: {
    requestId: string;
    deps: AppDeps;
    /** Set by readAdminSession: undefined until looked up, null when not signed in. */
    adminSession?: AdminSession | null;
    /** The session's account, set with adminSession. */
    adminUser?: typeof staffUsers.$inferSelect | null;
  };
  Bindings: {
    /** Netlify's function context (geo, ip) when running on Netlify. */
    context?: {
      ip?: string;
      geo?: { city?: string; country?: { code?: string; name?: string } };
      /** Keeps the function instance alive until the promise settles (api/background.ts). */
      waitUntil?: (promise: Promise<unknown>) => void;
    };
    /** @hono/node-server's request, when running locally. */
    incoming?: { socket?: { remoteAddress?: string } };
  };
};
