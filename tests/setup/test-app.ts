import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { createApp } from '../../src/server/api/app.ts';
import { silentLogger } from '../../src/server/app/logger.ts';
import type { AppDeps } from '../../src/server/app/deps.ts';
import { createBackgroundTasks } from '../../src/server/app/background.ts';
import { parseEnv, type Env } from '../../src/server/env.ts';
import { createMailer } from '../../src/server/providers/mailer.ts';
import { createPaymentsProvider } from '../../src/server/providers/stripe-payments.ts';
import { createDiskFileStore } from '../../src/server/providers/files.ts';
import { inProcessPdfPreviews } from '../../src/server/providers/pdf-previews.ts';
import { createTestDatabase } from './test-db.ts';
import { hashAdminPassword, resolveAdminCredentials } from '../../src/server/admin-password.ts';

/** The admin password every API test app accepts. */
export const TEST_ADMIN_PASSWORD = 'correct horse battery staple';
/**
 * The cost the test apps' admin password is hashed at: the same scrypt, checked by the same code
 * (a stored hash carries its own N, r, p), at 1/32 of production's work. The sign-in tests check
 * every attempt's password (a burst of 44, the lockout's 21, ...): at production strength each
 * check took a few hundred milliseconds of a core, seconds on a busy CI machine, and
 * tests/api/admin-auth.test.ts alone took over two minutes. Production strength keeps a test of
 * its own (tests/api/admin-password-strength.test.ts, `productionPasswordHash`).
 */
export const TEST_SCRYPT_PARAMS = { N: 2 ** 12, r: 8, p: 1 } as const;
let testCredentials: ReturnType<typeof resolveAdminCredentials> | undefined;

export const TEST_ORIGIN = 'http://localhost:8888';

export interface TestContext {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  /** Moves the app's clock (no test waits on a real one). */
  setNow(date: Date | string): void;
  close(): Promise<void>;
}

/** A real app on a real, fresh database; closed automatically after the file's tests. */
export async function createTestContext(
  overrides: Partial<Env> = {},
  options: { productionPasswordHash?: boolean } = {},
): Promise<TestContext> {
  const database = await createTestDatabase();
  // The unavailable-dates memo is off: tests write bookings straight into the database and expect
  // the next answer to show them (tests/api/unavailable-dates-cache.test.ts turns it on).
  const env = { ...parseEnv({ NODE_ENV: 'test', SITE_URL: TEST_ORIGIN, UNAVAILABLE_DATES_CACHE_SECONDS: '0' }), ...overrides };
  // Uploaded files go to a folder of this test file's own, removed with it.
  const filesDir = await mkdtemp(path.join(os.tmpdir(), 'cp-files-'));
  let now = new Date('2026-11-22T10:00:00Z');
  const deps: AppDeps = {
    db: database.db,
    env,
    mailer: createMailer(env, silentLogger),
    payments: createPaymentsProvider(env),
    files: createDiskFileStore(filesDir),
    pdfPreviews: inProcessPdfPreviews,
    // Hashed once per test file, at TEST_SCRYPT_PARAMS unless the test asks for production's.
    admin: options.productionPasswordHash
      ? await resolveAdminCredentials({ password: TEST_ADMIN_PASSWORD })
      : await (testCredentials ??= hashAdminPassword(TEST_ADMIN_PASSWORD, TEST_SCRYPT_PARAMS).then((passwordHash) =>
          resolveAdminCredentials({ passwordHash }),
        )),
    now: () => now,
    log: silentLogger,
    background: createBackgroundTasks(silentLogger),
  };
  const app = createApp(deps);
  // Work an answer leaves behind (a booking's e-mail delivery) finishes before the test reads the
  // answer, so every test sees a settled database whatever the driver's timing.
  const settledApp = new Proxy(app, {
    get(target, property, receiver) {
      if (property !== 'request') return Reflect.get(target, property, receiver);
      return async (...args: Parameters<typeof app.request>) => {
        const response = await target.request(...args);
        await deps.background.idle();
        return response;
      };
    },
  });
  const context: TestContext = {
    app: settledApp,
    deps,
    setNow(date) {
      now = new Date(date);
    },
    async close() {
      await deps.background.idle();
      await database.close();
      await rm(filesDir, { recursive: true, force: true });
    },
  };
  afterAll(() => context.close());
  return context;
}

/** A same-origin JSON request, as the site's own pages send. */
export function jsonRequest(body: unknown, init: RequestInit = {}): RequestInit {
  return {
    method: 'POST',
    ...init,
    headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN, ...(init.headers ?? {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}
