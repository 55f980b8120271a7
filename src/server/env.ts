import * as z from 'zod';
import { MAX_UNPAID_HOLDS_PER_CLIENT } from '../domain/booking-limits.ts';
import { normaliseUkVatNumber } from '../domain/vat.ts';
import { DEFAULT_STANDARD_LEAD_WORKING_DAYS } from '../domain/booking-days.ts';

/**
 * Every setting the project reads, validated once. Nothing else reads `process.env`
 * (conventions: "env.ts — every setting read and validated once").
 *
 * Optional providers stay optional: a missing key switches the provider to its local
 * default (outbox, disk) or to a clear "not configured" answer, never to a pretend success.
 */
const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

/** MM-DD naming a day every year has (so not 29 February). */
function isMonthDay(value: string): boolean {
  const match = /^(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const month = Number(match[1]);
  const day = Number(match[2]);
  // Day 0 of the next month is the month's last day; 2027 is a common year.
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(2027, month, 0)).getUTCDate();
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Public origin of the site, used for canonical URLs, e-mail links and the Origin check. */
  SITE_URL: z.string().url().default('http://localhost:8888'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8888),
  /** Interface the local server listens on. */
  HOST: z.string().default('127.0.0.1'),
  /** Unset: embedded PostgreSQL (PGlite) under DATA_DIR. Neon URL: Neon's driver. Other postgres:// URL: node-postgres. */
  DATABASE_URL: optionalString,
  DATA_DIR: z.string().default('.data'),
  /** The admin password in clear; hashed once at start. Prefer ADMIN_PASSWORD_HASH in production. */
  ADMIN_PASSWORD: optionalString,
  /** `scrypt$N$r$p$salt$hash` as printed by `npm run admin:hash`; wins over ADMIN_PASSWORD. */
  ADMIN_PASSWORD_HASH: optionalString,
  /**
   * Base32 secret of the optional second factor (`npm run admin:totp` prints one): when set,
   * sign-in also needs the current 6-digit code from an authenticator app.
   */
  ADMIN_TOTP_SECRET: optionalString.refine(
    (value) => value === undefined || /^[A-Z2-7]{16,}=*$/i.test(value.replace(/\s/g, '')),
    'must be a base32 secret of at least 16 characters, as printed by `npm run admin:totp`',
  ),

  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  PUBLIC_STRIPE_PUBLISHABLE_KEY: optionalString,
  /** A Stripe-compatible API (tests, offline work), e.g. http://127.0.0.1:12111 */
  STRIPE_API_URL: optionalString,

  SENDGRID_API_KEY: optionalString,
  EMAIL_FROM: z.string().email().default('bookings@cleanpatch.example'),
  /** Where staff notifications (new bookings, enquiries) go. */
  ADMIN_EMAIL: optionalString,

  /** Both set: customers' files go straight to Uploadcare (signed uploads) and the server verifies them. */
  PUBLIC_UPLOADCARE_PUBLIC_KEY: optionalString,
  UPLOADCARE_SECRET_KEY: optionalString,
  /** Uploadcare's REST API; a compatible local server in tests. */
  UPLOADCARE_API_URL: z.string().url().default('https://api.uploadcare.com'),

  /** Nominatim-compatible geocoder. Unset: the public OpenStreetMap Nominatim. "off" disables it. */
  GEOCODER_URL: z.string().default('https://nominatim.openstreetmap.org'),
  GEOCODER_USER_AGENT: z.string().default('CleanPatchBooking/1.0 (hello@cleanpatch.example)'),
  /**
   * Lookups the whole site may send the geocoder each second, across all function instances
   * (cache hits do not count). The public Nominatim allows 1; a paid service may allow more.
   */
  GEOCODER_MAX_PER_SECOND: z.coerce.number().int().positive().default(1),
  PUBLIC_MAP_TILE_URL: z.string().default('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png'),
  PUBLIC_MAP_ATTRIBUTION: z
    .string()
    .default('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),

  /** Patches the team can lay in one day; a date whose booked patches reach it is unavailable. */
  DAILY_PATCH_CAPACITY: z.coerce.number().int().positive().default(40),
  /** How many days after a rain day its bookings may move to (and the customer may choose from). */
  WEATHER_RESCHEDULE_DAYS: z.coerce.number().int().min(1).max(60).default(14),
  /**
   * Working days (Mon-Fri, England and Wales bank holidays excepted) between today and the first
   * day a customer may choose, for the stencil and its proof (domain/booking-days.ts). A Rush Job
   * needs 2.
   */
  STANDARD_LEAD_WORKING_DAYS: z.coerce.number().int().min(0).max(30).default(DEFAULT_STANDARD_LEAD_WORKING_DAYS),
  /**
   * An Open-Meteo-compatible forecast API (its base URL, e.g. https://api.open-meteo.com): the
   * Schedule shows rain probability per region for the next 7 days. Unset: no forecast is shown.
   */
  FORECAST_API_URL: z.string().url().optional(),
  /**
   * How long one instance reuses its unavailable-dates answer (0: never). Its own bookings and
   * blocks clear it at once; other instances' changes reach it within this time.
   */
  UNAVAILABLE_DATES_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  /**
   * Total size of uploaded files not yet attached to a booking (kept a day) the whole site will
   * hold; past it, uploads answer 429 until files are claimed or age out.
   */
  UNCLAIMED_UPLOAD_QUOTA_MB: z.coerce.number().positive().default(500),
  /** One client's share of the quota above (api.md): five of the largest files; a booking brings 1-3. */
  UNCLAIMED_UPLOAD_CLIENT_MB: z.coerce.number().positive().default(50),
  /**
   * Proof-of-work past a ceiling (limits/challenge.ts): about half this many tries of 1 000
   * PBKDF2 iterations each; 1 000 keeps a 4x-throttled phone near its 3 s goal (docs/PERFORMANCE.md).
   */
  CHALLENGE_MAX_NUMBER: z.coerce.number().int().min(10).max(10_000_000).default(1_000),
  /**
   * Photos a crew may send for one stop (api.md "Crew day"): a leaked crew link fills no more
   * than this. Past it the crew gets a 409 saying so.
   */
  CREW_PHOTOS_PER_STOP: z.coerce.number().int().min(1).max(500).default(30),
  /** Unpaid bookings one client may hold (api.md); by default the number the terms state. */
  UNPAID_HOLDS_PER_CLIENT: z.coerce.number().int().min(1).default(MAX_UNPAID_HOLDS_PER_CLIENT),
  /**
   * Site-wide ceilings on the public calls that store data or send e-mail (site-ceilings.ts):
   * past one, every address pays in work (428 with a challenge). Each counts, over a sliding hour,
   * the requests that did the work; refusals (400, 404, 409, 413, 415) spend none. The defaults are several times a small business's busiest hour,
   * so only a flood meets them; raise one for a campaign you expect to be bigger.
   *
   * Booking attempts: a campaign hour brings perhaps 20 bookings (the form checks fields before
   * sending, so few attempts fail); 120 is six times that. Each booking mails the typed address
   * and the staff, so this also bounds those e-mails at 240 an hour.
   */
  SITE_MAX_BOOKINGS_PER_HOUR: z.coerce.number().int().positive().default(120),
  /** Enquiries: a few a day is usual; each one mails an acknowledgement to the typed address. */
  SITE_MAX_ENQUIRIES_PER_HOUR: z.coerce.number().int().positive().default(60),
  /**
   * Uploads started (single files and files in parts): a booking brings one to three files, so
   * 300 covers the busiest booking hour several times over; UNCLAIMED_UPLOAD_QUOTA_MB bounds the
   * bytes besides.
   */
  SITE_MAX_UPLOADS_PER_HOUR: z.coerce.number().int().positive().default(300),
  /**
   * Project tracking lookups: customers check now and then, a few dozen an hour at most; the
   * ceiling keeps guessing e-mail and booking id pairs slow from many addresses, not just one.
   */
  SITE_MAX_TRACKING_LOOKUPS_PER_HOUR: z.coerce.number().int().positive().default(300),
  /**
   * The seller on invoices (api.md "Documents for business customers"): the registered name and
   * postal address. Unset: the business name and town of src/content/business.ts.
   */
  BUSINESS_LEGAL_NAME: optionalString,
  /** Lines separated by commas or newlines, e.g. "1 Example Street, Manchester, M1 1AA". */
  BUSINESS_ADDRESS: optionalString,
  /**
   * The seller's UK VAT registration number (GB and 9 digits; 12 for a branch; GD/HA and 3).
   * Set: invoices are VAT invoices showing net, VAT at VAT_RATE and gross. Unset: receipts that
   * say the seller is not VAT registered.
   */
  VAT_NUMBER: optionalString
    .refine((value) => value === undefined || normaliseUkVatNumber(value) !== null, 'must be a UK VAT number: GB followed by 9 digits (12 for a branch)')
    .transform((value) => (value === undefined ? undefined : normaliseUkVatNumber(value)!)),
  /** The VAT rate in per cent (prices are VAT-inclusive); only used with VAT_NUMBER. */
  VAT_RATE: z.coerce
    .number()
    .min(0)
    .max(100)
    .multipleOf(0.01, 'at most two decimals')
    .default(20),
  /**
   * The last day of the business's financial year, MM-DD (default 03-31). An invoice belongs to
   * the year ending on the first such day on or after its time of supply and is deleted 6 years
   * after that day (services/privacy/retention.ts). 29 February is refused: a year ending on the
   * last day of February is 02-28 (in a leap year its invoices are then kept a day longer, never
   * less).
   */
  FINANCIAL_YEAR_END: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || '03-31')
    .refine((value) => isMonthDay(value), 'must be a month and day as MM-DD, e.g. 03-31 (not 02-29)'),
  /** Trust X-Forwarded-For from the first proxy (Netlify sets context.ip instead). */
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** Set by Netlify in its build and functions; used to choose Netlify Blobs for files. */
  NETLIFY: optionalString,
  CONTEXT: optionalString,
  PUBLIC_DEMO_VIDEO_URL: optionalString,
});

export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Netlify's Neon integration names its variable NETLIFY_DATABASE_URL; accept either.
  const withAliases = {
    ...source,
    DATABASE_URL: source.DATABASE_URL || source.NETLIFY_DATABASE_URL,
    // On Netlify, URL is the site's primary address: links in e-mails must never say localhost.
    SITE_URL: source.SITE_URL || (source.NETLIFY ? source.URL : undefined),
  };
  const parsed = envSchema.safeParse(withAliases);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}

let cached: Env | undefined;

/** The process's settings, read once. Tests build their own with `parseEnv`. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

export const isProduction = (env: Env) => env.NODE_ENV === 'production' || env.CONTEXT === 'production';

/**
 * Settings of the test tooling (not the app): where Chromium is, which port the browser
 * tests serve on, and the PostgreSQL server the CI pass runs the suites against.
 */
export function testSettings(source: Record<string, string | undefined> = process.env) {
  return {
    chromePath: source.CHROME_PATH || undefined,
    e2ePort: source.E2E_PORT ? Number(source.E2E_PORT) : undefined,
    e2eDataDir: source.E2E_DATA_DIR || undefined,
    testDatabaseUrl: source.TEST_DATABASE_URL || undefined,
    /** The benches' PostgreSQL server (a maintenance database URL); they create and drop their own databases on it. */
    benchDatabaseUrl: source.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    /** `npm run fuzz`: cases per route, and a seed to repeat a run. */
    fuzzRuns: source.FUZZ_RUNS ? Number(source.FUZZ_RUNS) : undefined,
    fuzzSeed: source.FUZZ_SEED ? Number(source.FUZZ_SEED) : undefined,
    isCi: source.CI === 'true' || source.CI === '1',
  };
}
