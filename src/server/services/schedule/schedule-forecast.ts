import type { AppDeps } from '../../app/deps.ts';
import { addDays } from '../../../domain/format.ts';
import { outcodeInfo } from '../../../domain/postcodes.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { createForecast, type DailyRain } from '../../providers/forecast.ts';
import type { ScheduleDay } from './schedule-days.ts';

// The Schedule's rain column (api.md "Schedule and weather days", optional): for the next 7 days,
// each region with bookings that day gets the forecast at its bookings' first outward code. One
// request per answer, remembered for FORECAST_CACHE_MS per instance; a failing service shows
// nothing rather than a guess.

export const FORECAST_DAYS = 7;
export const FORECAST_CACHE_MS = 30 * 60_000;

const cache = new Map<string, { at: number; rain: DailyRain[][] }>();

/** Adds `forecast` to the days within the next 7 that have bookings; changes nothing without a provider. */
export async function addForecast(deps: Pick<AppDeps, 'env' | 'now' | 'log'>, days: ScheduleDay[], fetchImpl: typeof fetch = fetch): Promise<void> {
  const provider = createForecast(deps.env, fetchImpl);
  if (!provider) return;
  const today = londonDate(deps.now());
  const last = addDays(today, FORECAST_DAYS - 1);
  const soon = days.filter((day) => day.date >= today && day.date <= last && day.bookings.length > 0);
  const points = new Map<string, { lat: number; lng: number }>();
  for (const day of soon) {
    for (const booking of day.bookings) {
      if (!booking.region || points.has(booking.region)) continue;
      const info = booking.postcode ? outcodeInfo(booking.postcode) : null;
      if (info) points.set(booking.region, { lat: info.lat, lng: info.lng });
    }
  }
  if (points.size === 0) return;
  const regions = [...points.keys()].sort();
  const key = `${deps.env.FORECAST_API_URL}|${today}|${regions.map((region) => `${region}:${points.get(region)!.lat},${points.get(region)!.lng}`).join(';')}`;
  let rain = cache.get(key);
  if (!rain || deps.now().getTime() - rain.at > FORECAST_CACHE_MS) {
    try {
      rain = { at: deps.now().getTime(), rain: await provider.dailyRain(regions.map((region) => points.get(region)!), FORECAST_DAYS) };
      // Yesterday's keys and other regions' never come back: drop the stale ones, so a long-lived
      // server keeps a few answers rather than every one it ever fetched.
      for (const [stale, entry] of cache) if (rain.at - entry.at > FORECAST_CACHE_MS) cache.delete(stale);
      cache.set(key, rain);
    } catch (error) {
      deps.log.warn('forecast unavailable', { error: error instanceof Error ? error.message : String(error) });
      return;
    }
  }
  const byRegion = new Map(regions.map((region, index) => [region, new Map(rain!.rain[index]!.map((entry) => [entry.date, entry]))]));
  for (const day of soon) {
    const forecast: NonNullable<ScheduleDay['forecast']> = {};
    for (const region of new Set(day.bookings.map((booking) => booking.region))) {
      const entry = region ? byRegion.get(region)?.get(day.date) : undefined;
      if (region && entry) forecast[region] = { precipitationProbability: entry.precipitationProbability, precipitationMm: entry.precipitationMm };
    }
    if (Object.keys(forecast).length) day.forecast = forecast;
  }
}
