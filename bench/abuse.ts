/**
 * `npm run bench:abuse`: plays the hostile visitor of docs/SECURITY.md "Abuse and availability"
 * against a running API (its own process, a throwaway PostgreSQL database, the default limits,
 * TRUST_PROXY on so X-Forwarded-For plays many clients), one attack after another, and after each
 * one acts as a real customer from a fresh address: a booking with a 10 MB file sent in parts
 * (201), a tracking lookup and the e-mail's magic link (200), an enquiry (201), solving a
 * proof-of-work challenge whenever one is asked (as the browser's worker does, here in Node). It
 * prints, for each attack, what it cost the attacker and whether the customer was served, and
 * writes bench/results/abuse-<date>.json. Exits 1 if any customer was turned away.
 *
 *   npm run bench:abuse
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { freePort } from '../scripts/free-port.ts';
import { addDays } from '../src/domain/format.ts';
import { createScratchDatabase } from './lib/scratch-db.ts';
import { startChildServer, root } from './lib/child-server.ts';
import { bookingPayload } from '../tests/fixtures/bookings.ts';
import { hashAdminPassword } from '../src/server/admin-password.ts';
import { CHALLENGE_ITERATIONS, MAX_COST_FACTOR } from '../src/server/services/limits/challenge.ts';
import { nativeMicrosecondsPerTry, webCryptoMicrosecondsPerTry } from './lib/native-solver.ts';

const MB = 1024 * 1024;
const FILE_BYTES = 10 * MB;
const PART_BYTES = 4 * MB;

let addressCounter = 0;
/** A fresh client address (one IPv4 address is one client). */
const newAddress = () => {
  addressCounter += 1;
  return `198.51.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

interface Answer {
  status: number;
  body: Record<string, unknown>;
  cookies: string[];
}

interface Caller {
  baseUrl: string;
  address: string;
  /** Seconds spent solving challenges, and how many. */
  solved: { count: number; seconds: number };
}

/** One request from `caller`; a 428 is solved and sent again when `solve` is on (a real browser). */
async function call(
  caller: Caller,
  method: string,
  url: string,
  body?: unknown,
  { solve = false, raw, headers = {}, forwardedFor }: { solve?: boolean; raw?: Uint8Array; headers?: Record<string, string>; forwardedFor?: string } = {},
): Promise<Answer> {
  let header: string | undefined;
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(`${caller.baseUrl}${url}`, {
      method,
      headers: {
        origin: caller.baseUrl,
        'x-forwarded-for': forwardedFor ?? caller.address,
        ...headers,
        ...(raw ? { 'content-type': 'application/octet-stream' } : body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(header ? { 'x-altcha': header } : {}),
      },
      body: raw ? (raw as Uint8Array<ArrayBuffer>) : body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (response.status !== 428 || !solve || attempt >= 2) return { status: response.status, body: parsed, cookies: response.headers.getSetCookie() };
    const started = performance.now();
    const challenge = parsed.challenge as Challenge;
    maxCostSeen = Math.max(maxCostSeen, Number(challenge.parameters.cost));
    const solution = await solveChallenge({ challenge, deriveKey });
    caller.solved.count += 1;
    caller.solved.seconds += (performance.now() - started) / 1000;
    header = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }
}

/** The highest price (PBKDF2 iterations a try) a challenge asked during the current row. */
let maxCostSeen = 0;

const caller = (baseUrl: string, address = newAddress()): Caller => ({ baseUrl, address, solved: { count: 0, seconds: 0 } });

/**
 * The attackers of the current row: each one pays in work when asked (a determined stranger
 * solves the challenges too), and the row adds up what that cost them.
 */
const attackWork = { count: 0, seconds: 0 };
const attackerAt = (baseUrl: string): Caller => ({ baseUrl, address: newAddress(), solved: attackWork });
const attack = (who: Caller, method: string, url: string, body?: unknown) => call(who, method, url, body, { solve: true });

interface Attack {
  name: string;
  /** The attacker's cost: its requests and the seconds they took; the answers it got. */
  run(baseUrl: string, context: Context): Promise<{ requests: number; statuses: Record<number, number>; note: string }>;
}

interface Context {
  nextDate(): string;
  db: pg.Client;
  /** The owner's browser, signed in before the attacks: its device cookie. */
  ownerDevice: string;
  ownerEmail: string;
}

const STAFF_PASSWORD = 'lantern orchard violet 42';
const signIn = (who: Caller, email: string, password: string, headers: Record<string, string> = {}, forwardedFor?: string) =>
  call(who, 'POST', '/api/admin/login', { email, password }, { headers, forwardedFor });
const deviceOf = (answer: Answer) => answer.cookies.find((cookie) => cookie.startsWith('cp_device='))?.split(';')[0] ?? '';

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const ATTACKS: Attack[] = [
  {
    name: 'One unpaid 40-patch booking per date, 20 dates, one address',
    async run(baseUrl, context) {
      const attacker = attackerAt(baseUrl);
      const dates = Array.from({ length: 20 }, () => context.nextDate());
      const statuses = [];
      for (const date of dates) statuses.push((await attack(attacker, 'POST', '/api/bookings', bookingPayload({ preferredDate: date, quantity: 40 }))).status);
      const held = statuses.filter((status) => status === 201).length;
      // The customer then books one of the dates the attacker tried (the third).
      context.nextDate = ((original) => {
        let first = true;
        return () => (first ? ((first = false), dates[2]!) : original());
      })(context.nextDate);
      return { requests: dates.length, statuses: tally(statuses), note: `held ${held} of 20 dates; the customer books the 3rd` };
    },
  },
  {
    name: '120 bookings for a date paid bookings fill, from 6 addresses (all refused with 409)',
    async run(baseUrl, context) {
      const full = context.nextDate();
      const filled = await attack(attackerAt(baseUrl), 'POST', '/api/bookings', bookingPayload({ preferredDate: full, quantity: 40 }));
      // Only paid bookings fill a date: this one is paid (as Stripe's webhook would mark it).
      await context.db.query(`update bookings set payment_status = 'paid' where id = $1`, [Number(filled.body.id)]);
      const statuses = [];
      for (let address = 0; address < 6; address += 1) {
        const attacker = attackerAt(baseUrl);
        for (let index = 0; index < 20; index += 1) statuses.push((await attack(attacker, 'POST', '/api/bookings', bookingPayload({ preferredDate: full, quantity: 5 }))).status);
      }
      return { requests: 121, statuses: tally(statuses), note: 'a date filled, then 120 attempts at it' };
    },
  },
  {
    name: '300 wrong tracking lookups from 30 addresses',
    async run(baseUrl) {
      const statuses = [];
      for (let address = 0; address < 30; address += 1) {
        const attacker = attackerAt(baseUrl);
        for (let index = 0; index < 10; index += 1) {
          statuses.push((await attack(attacker, 'POST', '/api/track-project', { email: `guess${index}@example.co.uk`, bookingId: 1000 + index })).status);
        }
      }
      return { requests: 300, statuses: tally(statuses), note: 'wrong guesses are refusals: they count for nothing' };
    },
  },
  {
    name: '60 enquiries from 6 addresses',
    async run(baseUrl) {
      const statuses = [];
      for (let address = 0; address < 6; address += 1) {
        const attacker = attackerAt(baseUrl);
        for (let index = 0; index < 10; index += 1) statuses.push((await attack(attacker, 'POST', '/api/contacts', enquiry(`Enquiry ${index} from a script`))).status);
      }
      return { requests: 60, statuses: tally(statuses), note: 'past the ceiling (60 an hour) each one pays in work' };
    },
  },
  {
    name: '300 part-upload sessions of one byte, never used (10 addresses)',
    async run(baseUrl) {
      const statuses = [];
      for (let address = 0; address < 10; address += 1) {
        const attacker = attackerAt(baseUrl);
        for (let index = 0; index < 30; index += 1) statuses.push((await attack(attacker, 'POST', '/api/upload/parts', { name: 'x.pdf', size: 1 })).status);
      }
      return { requests: 300, statuses: tally(statuses), note: 'past the ceiling (300 an hour) each one pays in work' };
    },
  },
  {
    name: '50 uploads of 10 MB from 2 addresses',
    async run(baseUrl) {
      const statuses = [];
      for (let address = 0; address < 2; address += 1) {
        const attacker = attackerAt(baseUrl);
        for (let index = 0; index < 25; index += 1) statuses.push((await attack(attacker, 'POST', '/api/upload/parts', { name: 'big.pdf', size: FILE_BYTES })).status);
      }
      return { requests: 50, statuses: tally(statuses), note: 'sessions count the bytes they received, so opening them holds no room' };
    },
  },
  {
    name: 'Issue #33 row 1: 10 addresses each open 5 part uploads declaring 10 MB and send nothing',
    async run(baseUrl) {
      const statuses = [];
      for (let address = 0; address < 10; address += 1) {
        const attacker = attackerAt(baseUrl);
        for (let index = 0; index < 5; index += 1) statuses.push((await attack(attacker, 'POST', '/api/upload/parts', { name: 'big.pdf', size: FILE_BYTES })).status);
      }
      return { requests: 50, statuses: tally(statuses), note: 'declared sizes hold no room: only bytes received count, and a session idle 15 minutes ends' };
    },
  },
  {
    name: "Issue #33 row 2: a viewer's device cookie, 40 wrong passwords for the owner from 40 addresses",
    async run(baseUrl, context) {
      const viewer = attackerAt(baseUrl);
      const device = deviceOf(await signIn(viewer, 'viewer@bench.example', STAFF_PASSWORD));
      const statuses = [];
      for (let guess = 0; guess < 40; guess += 1) statuses.push((await signIn(attackerAt(baseUrl), context.ownerEmail, `guess ${guess}`, { cookie: device })).status);
      // The owner, from the browser they signed in from before, at their own address.
      const owner = await signIn(caller(baseUrl), context.ownerEmail, STAFF_PASSWORD, { cookie: context.ownerDevice });
      return { requests: 41, statuses: tally(statuses), note: `the cookie lifts nothing for another account (10 × 401, then 429); the owner from their own device: ${owner.status}` };
    },
  },
  {
    name: 'Issue #33 row 4: 150 enquiries from 15 addresses, every challenge solved natively',
    async run(baseUrl) {
      maxCostSeen = 0;
      const statuses = [];
      for (let address = 0; address < 15; address += 1) {
        const attacker = attackerAt(baseUrl);
        for (let index = 0; index < 10; index += 1) statuses.push((await attack(attacker, 'POST', '/api/contacts', enquiry(`Solved enquiry ${index}`))).status);
      }
      return { requests: 150, statuses: tally(statuses), note: `solved requests count toward the pressure: the price rose to ${maxCostSeen} iterations a try` };
    },
  },
  {
    name: 'Issue #33 row 5: 40 sign-ins from one address writing a new X-Forwarded-For each time',
    async run(baseUrl) {
      const attacker = attackerAt(baseUrl);
      const statuses = [];
      for (let index = 0; index < 40; index += 1) {
        statuses.push((await signIn(attacker, `nobody${index}@bench.example`, 'guess', {}, `10.${index}.0.1, ${attacker.address}`)).status);
      }
      return { requests: 40, statuses: tally(statuses), note: 'the client is the right-most entry the proxy appended: one client, 10 tries' };
    },
  },
  {
    name: 'Unpaid holds: 10 addresses each book the same whole day and never pay',
    async run(baseUrl, context) {
      const day = context.nextDate();
      const statuses = [];
      for (let address = 0; address < 10; address += 1) statuses.push((await attack(attackerAt(baseUrl), 'POST', '/api/bookings', bookingPayload({ preferredDate: day, quantity: 40 }))).status);
      // The customer then books that very day.
      context.nextDate = ((original) => {
        let first = true;
        return () => (first ? ((first = false), day) : original());
      })(context.nextDate);
      return { requests: 10, statuses: tally(statuses), note: 'an unpaid booking holds nothing: the customer who pays first gets the day' };
    },
  },
];

function enquiry(message: string) {
  return { firstName: 'Amira', lastName: 'Khan', email: 'amira@northernroasters.co.uk', phone: '0161 496 0000', inquiryType: 'Custom Quote', message, website: '' };
}

/** A "PDF" of `size` bytes. */
function pdf(size: number): Uint8Array {
  const bytes = randomBytes(size);
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'), 0);
  return bytes;
}

interface CustomerResult {
  served: boolean;
  steps: Record<string, number>;
  challenges: number;
  solveSeconds: number;
  seconds: number;
}

/** One real customer from a fresh address, as the site's forms behave (challenges solved). */
async function customer(baseUrl: string, context: Context): Promise<CustomerResult> {
  const started = performance.now();
  const me = caller(baseUrl);
  const steps: Record<string, number> = {};
  const file = pdf(FILE_BYTES);
  const opened = await call(me, 'POST', '/api/upload/parts', { name: 'Brand guide.pdf', size: FILE_BYTES }, { solve: true });
  let uploaded: Record<string, unknown> | undefined;
  if (opened.status === 201) {
    const { uploadId, partCount } = opened.body as { uploadId: string; partCount: number };
    for (let index = 0; index < partCount; index += 1) {
      await call(me, 'PUT', `/api/upload/parts/${uploadId}/${index}`, undefined, { raw: file.subarray(index * PART_BYTES, (index + 1) * PART_BYTES) });
    }
    const completed = await call(me, 'POST', `/api/upload/parts/${uploadId}/complete`, {});
    steps.upload = completed.status;
    uploaded = completed.body;
  } else {
    steps.upload = opened.status;
  }
  const booking = await call(me, 'POST', '/api/bookings', bookingPayload({ preferredDate: context.nextDate(), quantity: 5, uploadedFiles: uploaded?.filename ? [uploaded] : [] }), { solve: true });
  steps.booking = booking.status;
  const id = Number(booking.body.id);
  steps.tracking = (await call(me, 'POST', '/api/track-project', { email: 'amira@northernroasters.co.uk', bookingId: id }, { solve: true })).status;
  const mail = await context.db.query<{ body: string }>(`select text_body as body from email_outbox where booking_id = $1 and text_body like '%/track-project?t=%' limit 1`, [id]);
  const token = /\/track-project\?t=([\w-]+)/.exec(mail.rows[0]?.body ?? '')?.[1];
  steps.magicLink = token ? (await call(me, 'POST', '/api/track-project', { token }, { solve: true })).status : 0;
  steps.enquiry = (await call(me, 'POST', '/api/contacts', enquiry('Ten patches outside our new shop, please.'), { solve: true })).status;
  const expected = { upload: 201, booking: 201, tracking: 200, magicLink: 200, enquiry: 201 };
  const served = Object.entries(expected).every(([step, status]) => steps[step] === status);
  return { served, steps, challenges: me.solved.count, solveSeconds: me.solved.seconds, seconds: (performance.now() - started) / 1000 };
}

const scratch = await createScratchDatabase('pg', 'abuse');
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
// The bench must never write into a database named by the caller's own settings.
const { DATABASE_URL: _url, NETLIFY_DATABASE_URL: _netlifyUrl, NETLIFY: _netlify, ADMIN_PASSWORD_HASH: _hash, ...inherited } = process.env;
const env = {
  ...inherited,
  DATABASE_URL: scratch.url!,
  DATA_DIR: scratch.dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  SITE_URL: origin,
  TRUST_PROXY: 'true',
  ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
  ADMIN_TOTP_SECRET: '',
};
console.log('Starting the API (migrations and demo data)…');
const server = await startChildServer('bench/api-server.ts', env, port, path.join(scratch.dataDir, 'server.log'));
const db = new pg.Client({ connectionString: scratch.url });
await db.connect();
// Two accounts for the sign-in rows: an owner (who signs in once now, from their own browser)
// and a viewer, whose browser the attacker uses.
const staffHash = await hashAdminPassword(STAFF_PASSWORD);
for (const [name, email, role] of [['Olu Owner', 'owner@bench.example', 'owner'], ['Vic Viewer', 'viewer@bench.example', 'viewer']]) {
  await db.query(`insert into staff_users (name, email, role, status, password_hash, created_at, updated_at) values ($1, $2, $3, 'active', $4, now(), now())`, [name, email, role, staffHash]);
}
const ownerDevice = deviceOf(await signIn(caller(server.baseUrl), 'owner@bench.example', STAFF_PASSWORD));
let day = 0;
const context: Context = { nextDate: () => addDays('2027-09-01', (day += 1)), db, ownerDevice, ownerEmail: 'owner@bench.example' };

interface Row {
  attack: string;
  requests: number;
  attackSeconds: number;
  /** Challenges the attackers solved on the way, and the seconds of work they took. */
  attackChallenges: number;
  attackWorkSeconds: number;
  statuses: Record<number, number>;
  note: string;
  customer: CustomerResult;
}
const rows: Row[] = [];
let challengePrice: Record<string, number | null> = {};
try {
  const baseline = await customer(server.baseUrl, context);
  console.log(`Baseline customer: ${JSON.stringify(baseline.steps)} in ${baseline.seconds.toFixed(2)} s`);
  for (const row of ATTACKS) {
    attackWork.count = 0;
    attackWork.seconds = 0;
    const started = performance.now();
    const result = await row.run(server.baseUrl, context);
    const attackSeconds = (performance.now() - started) / 1000;
    const served = await customer(server.baseUrl, context);
    rows.push({ attack: row.name, ...result, attackSeconds, attackChallenges: attackWork.count, attackWorkSeconds: attackWork.seconds, customer: served });
    console.log(`${row.name}: ${JSON.stringify(result.statuses)}; customer ${served.served ? 'served' : 'TURNED AWAY'} ${JSON.stringify(served.steps)}`);
  }
  console.log("\n| What a stranger does | Attacker's cost | Answers it got (after solving what was asked) | A customer then | Customer's challenges (work) |");
  console.log('|---|---|---|---|---|');
  for (const row of rows) {
    const answers = Object.entries(row.statuses).map(([status, count]) => `${count} × ${status}`).join(', ');
    const outcome = row.customer.served ? 'served' : 'turned away';
    const cost = `${row.requests} requests, ${row.attackSeconds.toFixed(1)} s, of which ${row.attackChallenges} challenges (${row.attackWorkSeconds.toFixed(1)} s of work)`;
    const steps = Object.entries(row.customer.steps).map(([step, status]) => `${step} ${status}`).join(', ');
    console.log(
      `| ${row.attack} | ${cost} | ${answers}: ${row.note} | ${outcome}: ${steps}, in ${row.customer.seconds.toFixed(2)} s | ${row.customer.challenges} (${row.customer.solveSeconds.toFixed(2)} s) |`,
    );
  }
  console.log(`\nBaseline customer, no attack: ${baseline.seconds.toFixed(2)} s, ${baseline.challenges} challenges.`);
  // The price of one challenge (limits/challenge.ts): on average CHALLENGE_MAX_NUMBER / 2 tries.
  const averageTries = Number(process.env.CHALLENGE_MAX_NUMBER ?? 1000) / 2;
  const native = nativeMicrosecondsPerTry(CHALLENGE_ITERATIONS);
  const web = await webCryptoMicrosecondsPerTry(CHALLENGE_ITERATIONS);
  const perSolution = (microseconds: number, factor: number) => ((microseconds * factor * averageTries) / 1e6).toFixed(2);
  challengePrice = { nativeMicrosecondsPerTry: native, webCryptoMicrosecondsPerTry: web, averageTries };
  console.log('\nPrice of one challenge past a ceiling (1 000 PBKDF2-SHA-256 iterations a try, 500 tries on average):');
  console.log(native === null ? '  native solver: no gcc/libcrypto here' : `  attacker, native C (OpenSSL PKCS5_PBKDF2_HMAC, one core): ${perSolution(native, 1)} s at the base price, ${perSolution(native, MAX_COST_FACTOR)} s at ${MAX_COST_FACTOR} times`);
  console.log(`  browser's WebCrypto on this machine: ${perSolution(web, 1)} s; a 4x-throttled phone (4 times that): ${perSolution(web * 4, 1)} s at the base price, ${perSolution(web * 4, MAX_COST_FACTOR)} s at ${MAX_COST_FACTOR} times`);
  mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
  const file = path.join(root, 'bench', 'results', `abuse-${new Date().toISOString().slice(0, 10)}.json`);
  writeFileSync(file, JSON.stringify({ baseline, rows, challengePrice }, null, 2));
  console.log(`Written to ${path.relative(root, file)}`);
} finally {
  await db.end();
  await server.stop();
  await scratch.drop();
}
if (rows.some((row) => !row.customer.served)) process.exitCode = 1;
