import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../app/request.ts';
import { adminActor, requireAdmin } from '../middleware/admin-auth.ts';
import { bookingsCsv, contactsCsv, dashboardStats } from '../../services/analytics/admin-stats.ts';
import { writeChannelLog } from '../../services/messages/channel-log.ts';

/** The date in the UK, for file names: an export made at 00:30 BST is that day's. */
function londonDate(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(now);
}

async function csvDownload(c: Context<AppEnv>, what: 'bookings' | 'enquiries', build: () => Promise<string>) {
  const { db, now } = c.get('deps');
  const csv = await build();
  // Exports carry customers' personal data: who took one is worth knowing.
  await writeChannelLog(db, { channel: 'admin', action: 'export', userId: adminActor(c), details: `Exported ${what} as CSV` });
  return c.body(csv, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="cleanpatch-${what}-${londonDate(now())}.csv"`,
    'Cache-Control': 'no-store',
  });
}

/**
 * The dashboard frame's own calls: stat cards and the Quick Actions' downloads. The guard is on
 * each route, not `use('*')`: this app shares the /api/admin prefix with the open sign-in routes.
 */
export const adminRoutes = new Hono<AppEnv>()
  .get('/stats', requireAdmin, async (c) => c.json(await dashboardStats(c.get('deps').db)))
  .get('/export/bookings.csv', requireAdmin, (c) => csvDownload(c, 'bookings', () => bookingsCsv(c.get('deps').db)))
  .get('/export/contacts.csv', requireAdmin, (c) => csvDownload(c, 'enquiries', () => contactsCsv(c.get('deps').db)));
