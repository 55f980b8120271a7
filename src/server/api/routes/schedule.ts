import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { afterResponse } from '../background.ts';
import { readJson } from '../middleware/body.ts';
import { adminActor, requireAdmin } from '../middleware/admin-auth.ts';
import { parseBookingId } from '../../services/bookings/admin-bookings.ts';
import { readIdempotencyKey } from '../../services/bookings/idempotency.ts';
import { deliverInviteMail } from '../../services/bookings/installation-invites.ts';
import { moveBookingToDay, validateMoveDate } from '../../services/schedule/move-booking.ts';
import { addForecast } from '../../services/schedule/schedule-forecast.ts';
import { MAX_DAY_CAPACITY, MAX_DAY_REASON_LENGTH, SCHEDULE_MESSAGES, loadSchedule, scheduleRange, setDayCapacity } from '../../services/schedule/schedule-days.ts';
import { confirmWeatherDay, previewWeatherDay, readWeatherInput } from '../../services/schedule/weather-days.ts';
import { toBookingJson } from '../../services/bookings/booking-view.ts';

// The Schedule tab's calls (api.md "Schedule and weather days"): every staff role reads, staff
// change (requireAdmin). Mail queued in a transaction is sent after the answer.

const daySchema = z.object({
  capacity: z.number(SCHEDULE_MESSAGES.invalidCapacity).int(SCHEDULE_MESSAGES.invalidCapacity).min(0, SCHEDULE_MESSAGES.invalidCapacity).max(MAX_DAY_CAPACITY, SCHEDULE_MESSAGES.invalidCapacity),
  reason: z
    .string()
    .max(MAX_DAY_REASON_LENGTH, SCHEDULE_MESSAGES.reasonTooLong)
    .nullish()
    .transform((reason) => reason?.trim() || null),
});
const moveSchema = z.object({ date: z.string().max(10) });
const weatherSchema = z.object({ date: z.unknown(), regions: z.unknown().optional(), moves: z.unknown().optional() });

function rules(c: Context<AppEnv>) {
  const { env, now } = c.get('deps');
  return { now: now(), capacity: env.DAILY_PATCH_CAPACITY, windowDays: env.WEATHER_RESCHEDULE_DAYS };
}

function deliver(c: Context<AppEnv>, keys: readonly (string | null)[]): void {
  if (keys.some(Boolean)) afterResponse(c, () => deliverInviteMail(c.get('deps'), keys));
}

/** Under /api/admin, beside other routers: each route carries its own guard. */
export const scheduleRoutes = new Hono<AppEnv>()
  .get('/schedule', requireAdmin, async (c) => {
    const dates = scheduleRange(c.req.query('from'), c.req.query('to'));
    const deps = c.get('deps');
    const days = await loadSchedule(deps.db, dates, rules(c));
    await addForecast(deps, days);
    c.header('Cache-Control', 'no-store');
    return c.json({ days });
  })
  .put('/schedule/days/:date', requireAdmin, async (c) => {
    const body = await readJson(c, daySchema);
    const deps = c.get('deps');
    const day = await setDayCapacity(
      deps.db,
      { date: c.req.param('date'), ...body },
      { actor: adminActor(c), now: deps.now(), defaultCapacity: deps.env.DAILY_PATCH_CAPACITY },
    );
    return c.json(day);
  })
  .post('/bookings/:id/reschedule', requireAdmin, async (c) => {
    const id = parseBookingId(c.req.param('id'));
    const { date: raw } = await readJson(c, moveSchema);
    const deps = c.get('deps');
    const now = deps.now();
    const date = validateMoveDate(raw, now);
    const moved = await deps.db.transaction((tx) =>
      moveBookingToDay(tx, id, date, { now, capacity: deps.env.DAILY_PATCH_CAPACITY, siteUrl: deps.env.SITE_URL, actor: adminActor(c), cause: 'staff' }),
    );
    deliver(c, [moved.mailKey]);
    return c.json(toBookingJson(moved.booking));
  })
  .post('/weather-days/preview', requireAdmin, async (c) => {
    const input = readWeatherInput(await readJson(c, weatherSchema));
    return c.json(await previewWeatherDay(c.get('deps').db, input, rules(c)));
  })
  .post('/weather-days', requireAdmin, async (c) => {
    const key = readIdempotencyKey(c.req.header('Idempotency-Key'));
    const input = readWeatherInput(await readJson(c, weatherSchema));
    const deps = c.get('deps');
    const done = await confirmWeatherDay(deps.db, input, { ...rules(c), key, actor: adminActor(c), siteUrl: deps.env.SITE_URL });
    deliver(c, done.mailKeys);
    return c.json(done.body, done.status);
  });
