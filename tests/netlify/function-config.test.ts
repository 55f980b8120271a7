import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WORKER_NOTIFICATION_CRON } from '../../src/domain/schedule.ts';

// The API function's edge rate limit (netlify/functions/api.mts `config.rateLimit`), as Netlify's
// own bundler read it: .ci/run runs this after `netlify serve --offline` has built the site, which
// writes the functions' manifest as `netlify build --offline` does. The bundler reads the config
// without running the module, so a rule it cannot read would silently vanish from the deploy.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifestFile = path.join(root, '.netlify', 'functions', 'manifest.json');

interface ManifestFunction {
  name: string;
  mainFile: string;
  schedule?: string;
  trafficRules?: {
    action: { type: string; config: { rateLimitConfig: { windowLimit: number; windowSize: number; algorithm: string }; aggregate: { keys: { type: string }[] } } };
  };
}

describe('the built functions manifest', () => {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { functions: ManifestFunction[] };

  it('packs every function from its deploy bundle (scripts/build-functions.ts), not from its sources', () => {
    // The sources are the dev context's (netlify.toml): zipped from them, the API function loads
    // drizzle-orm, zod and Hono as hundreds of files and its cold import takes about 1 s of CPU.
    const mainFiles = manifest.functions.map((fn) => path.relative(root, fn.mainFile));
    expect(mainFiles.sort()).toEqual(['api', 'maintenance', 'proof-preview', 'worker-notifications'].map((name) => path.join('dist-functions', `${name}.mjs`)));
  });

  it('carries the API function’s rate limit: per client address, a sliding minute, 600 requests', () => {
    const api = manifest.functions.find((fn) => fn.name === 'api');
    expect(api?.trafficRules?.action).toEqual({
      type: 'rate_limit',
      config: {
        rateLimitConfig: { windowLimit: 600, windowSize: 60, algorithm: 'sliding_window' },
        aggregate: { keys: [{ type: 'ip' }, { type: 'domain' }] },
      },
    });
  });

  it('schedules the hourly maintenance and the evening worker e-mail, as the bundler read their config', () => {
    const schedules = Object.fromEntries(manifest.functions.map((fn) => [fn.name, fn.schedule]));
    expect(schedules).toEqual({
      api: undefined,
      maintenance: '@hourly',
      'worker-notifications': WORKER_NOTIFICATION_CRON,
      'proof-preview': undefined,
    });
  });

  it('leaves the other functions without one: Netlify calls the scheduled ones, the API the proof preview', () => {
    const others = manifest.functions.filter((fn) => fn.name !== 'api');
    expect(others.map((fn) => fn.name).sort()).toEqual(['maintenance', 'proof-preview', 'worker-notifications']);
    expect(others.map((fn) => fn.trafficRules)).toEqual([undefined, undefined, undefined]);
  });
});
