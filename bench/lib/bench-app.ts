import path from 'node:path';
import type { Database } from '../../db/client.ts';
import { staffUsers } from '../../db/schema.ts';
import { createApp } from '../../src/server/api/app.ts';
import { createBackgroundTasks } from '../../src/server/app/background.ts';
import { silentLogger } from '../../src/server/app/logger.ts';
import type { AppDeps } from '../../src/server/app/deps.ts';
import { adminCookieName } from '../../src/server/api/middleware/admin-auth.ts';
import { parseEnv } from '../../src/server/env.ts';
import { createDiskFileStore } from '../../src/server/providers/files.ts';
import { createMailer } from '../../src/server/providers/mailer.ts';
import { createPaymentsProvider } from '../../src/server/providers/stripe-payments.ts';
import { inProcessPdfPreviews } from '../../src/server/providers/pdf-previews.ts';
import { startAdminSession } from '../../src/server/services/staff/admin-sessions.ts';
import type { ScratchDatabase } from './scratch-db.ts';

/**
 * The production app on a bench's scratch database, called in this process (no network), and the
 * headers of a signed-in owner for its admin calls.
 */
export async function benchApp(db: Database, scratch: ScratchDatabase, siteUrl: string) {
  const env = parseEnv({ NODE_ENV: 'production', SITE_URL: siteUrl, DATABASE_URL: scratch.url, DATA_DIR: scratch.dataDir });
  const deps: AppDeps = {
    db,
    env,
    mailer: createMailer(env, silentLogger),
    payments: createPaymentsProvider(env),
    files: createDiskFileStore(path.join(scratch.dataDir, 'uploads')),
    pdfPreviews: inProcessPdfPreviews,
    admin: null,
    now: () => new Date(),
    log: silentLogger,
    background: createBackgroundTasks(silentLogger),
  };
  const [owner] = await db
    .insert(staffUsers)
    .values({ name: 'Bench owner', email: 'bench-owner@localhost', role: 'owner', status: 'active' })
    .onConflictDoUpdate({ target: staffUsers.email, set: { status: 'active' } })
    .returning();
  const { token } = await startAdminSession(db, new Date(), owner!.id);
  return { app: createApp(deps), deps, headers: { Cookie: `${adminCookieName(siteUrl)}=${token}`, Origin: siteUrl } };
}
