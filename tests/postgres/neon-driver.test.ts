/**
 * Production runs on Neon through @neondatabase/serverless. This proves that driver (its
 * WebSocket Pool, transactions, migrations) against the machine's PostgreSQL through a
 * local WebSocket relay, the way Neon's own proxy carries it. Runs in CI's PostgreSQL pass.
 */
import { createBackgroundTasks } from '../../src/server/app/background.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, driverFor, type DatabaseHandle } from '../../db/client.ts';
import { migrateDatabase } from '../../db/migrate.ts';
import { contactEnquiries } from '../../db/schema.ts';
import { adminQuery, withDatabase } from '../setup/postgres.ts';
import { startNeonProxy } from '../setup/neon-proxy.ts';
import { createApp } from '../../src/server/api/app.ts';
import { createMailer } from '../../src/server/providers/mailer.ts';
import { createDiskFileStore } from '../../src/server/providers/files.ts';
import { inProcessPdfPreviews } from '../../src/server/providers/pdf-previews.ts';
import { parseEnv, testSettings } from '../../src/server/env.ts';
import { silentLogger } from '../../src/server/app/logger.ts';

const adminUrl = testSettings().testDatabaseUrl;
if (!adminUrl) throw new Error('The postgres suite needs TEST_DATABASE_URL (see .ci/run)');
const name = `cp_neon_${randomBytes(5).toString('hex')}`;
let proxy: Awaited<ReturnType<typeof startNeonProxy>>;
let handle: DatabaseHandle;

beforeAll(async () => {
  await adminQuery(adminUrl, `create database ${name}`);
  proxy = await startNeonProxy();
  const url = withDatabase(adminUrl, name).replace(/^postgres(ql)?:/, 'neon:');
  handle = await openDatabase({ url, neonWsProxy: proxy.wsProxy });
});

afterAll(async () => {
  await handle?.close();
  await proxy?.close();
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
});

describe('Neon serverless driver', () => {
  it('is chosen for Neon hosts', () => {
    expect(driverFor('postgresql://u:p@ep-cool-1234.eu-west-2.aws.neon.tech/neondb?sslmode=require')).toBe('neon');
    expect(driverFor('postgres://postgres@127.0.0.1:5432/test')).toBe('pg');
    expect(driverFor(undefined)).toBe('pglite');
  });

  it('applies the migrations and serves the API', async () => {
    expect(handle.driver).toBe('neon');
    await migrateDatabase(handle);
    const env = parseEnv({ NODE_ENV: 'test' });
    const app = createApp({
      db: handle.db,
      env,
      mailer: createMailer(env, silentLogger),
      payments: null,
      files: createDiskFileStore(`${env.DATA_DIR}/uploads`),
      pdfPreviews: inProcessPdfPreviews,
      admin: null,
      now: () => new Date(),
      log: silentLogger,
      background: createBackgroundTasks(silentLogger),
    });
    const response = await app.request('/api/analytics/event', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ eventName: 'tracking_viewed' }),
    });
    expect(response.status).toBe(204);
  });

  it('commits and rolls back interactive transactions', async () => {
    const enquiry = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org', inquiryType: 'General Inquiry', message: 'Hello there, testing.' };
    await handle.db.transaction(async (tx) => {
      await tx.insert(contactEnquiries).values(enquiry);
    });
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(contactEnquiries).values({ ...enquiry, firstName: 'Rolled' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const rows = await handle.db.select().from(contactEnquiries);
    expect(rows.map((row) => row.firstName)).toEqual(['Ada']);
    const counted = (await handle.db.execute(sql`select count(*)::int as n from contact_enquiries`)) as unknown as { rows: { n: number }[] };
    expect(counted.rows[0]?.n).toBe(1);
    expect(await handle.db.select().from(contactEnquiries).where(eq(contactEnquiries.firstName, 'Rolled'))).toHaveLength(0);
  });
});
