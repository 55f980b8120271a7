import type { Env } from '../env.ts';

/**
 * Rain forecasts for the Schedule: an Open-Meteo-compatible API at FORECAST_API_URL
 * (`/v1/forecast` with `daily=precipitation_probability_max,precipitation_sum`, several points in
 * one request). Unset: no provider, and the Schedule shows no forecast at all.
 */
export interface DailyRain {
  date: string;
  /** Highest chance of rain that day, percent; null when the service does not say. */
  precipitationProbability: number | null;
  /** Expected rain that day, millimetres. */
  precipitationMm: number | null;
}

export interface ForecastProvider {
  /** The next days' rain at each point, in the order given; throws when the service fails. */
  dailyRain(points: readonly { lat: number; lng: number }[], days: number): Promise<DailyRain[][]>;
}

export const FORECAST_TIMEOUT_MS = 3_000;

interface OpenMeteoDaily {
  daily?: { time?: unknown; precipitation_probability_max?: unknown; precipitation_sum?: unknown };
}

const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function toDaily(answer: OpenMeteoDaily): DailyRain[] {
  const daily = answer.daily ?? {};
  const time = Array.isArray(daily.time) ? daily.time : [];
  const probability = Array.isArray(daily.precipitation_probability_max) ? daily.precipitation_probability_max : [];
  const sum = Array.isArray(daily.precipitation_sum) ? daily.precipitation_sum : [];
  return time
    .map((date, index) => ({ date: String(date), precipitationProbability: numberOrNull(probability[index]), precipitationMm: numberOrNull(sum[index]) }))
    .filter((day) => /^\d{4}-\d{2}-\d{2}$/.test(day.date));
}

export function createForecast(env: Env, fetchImpl: typeof fetch = fetch): ForecastProvider | null {
  if (!env.FORECAST_API_URL) return null;
  const base = env.FORECAST_API_URL;
  return {
    async dailyRain(points, days) {
      if (points.length === 0) return [];
      const url = new URL('/v1/forecast', base);
      url.searchParams.set('latitude', points.map((point) => point.lat.toFixed(4)).join(','));
      url.searchParams.set('longitude', points.map((point) => point.lng.toFixed(4)).join(','));
      url.searchParams.set('daily', 'precipitation_probability_max,precipitation_sum');
      url.searchParams.set('timezone', 'Europe/London');
      url.searchParams.set('forecast_days', String(days));
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(FORECAST_TIMEOUT_MS), headers: { Accept: 'application/json' } });
      if (!response.ok) throw new Error(`Forecast service answered ${response.status}`);
      const body = (await response.json()) as OpenMeteoDaily | OpenMeteoDaily[];
      // One point answers an object, several an array in the order asked.
      const answers = Array.isArray(body) ? body : [body];
      return points.map((_, index) => toDaily(answers[index] ?? {}));
    },
  };
}
