import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { functionBuildOptions } from '../../../bench/lib/function-bundle.ts';

// Bytes, not times: what a cold start of the API function must parse and run. Bundled as
// Netlify's esbuild bundler does (netlify.toml's external_node_modules left out).
// 1.75 MB since staff accounts: their routes and services (about 30 KB) and the 10 000 most common
// passwords that a new staff password is checked against (83 KB, parsed only when a password is
// set). The WebAuthn library stays outside the bundle (netlify.toml), loaded by the first passkey call.
// 1.76 MB since the abuse hardening of issue #33 (about 8 KB: devices per person, TOTP confirmation,
// upload quota by bytes received, a challenge per ceiling, the SVG size check).
const BUNDLE_BUDGET_BYTES = 1_760_000;
const ZOD_BUDGET_BYTES = 300_000;

describe('the API function bundle', () => {
  it(`stays within ${BUNDLE_BUDGET_BYTES / 1e6} MB, zod within ${ZOD_BUDGET_BYTES / 1e3} KB and its English messages only`, async () => {
    const result = await build({ ...functionBuildOptions(), write: false, outfile: 'api.mjs' });
    const output = Object.values(result.metafile.outputs)[0]!;
    const inputs = Object.entries(output.inputs);
    const zodBytes = inputs.filter(([file]) => file.includes('node_modules/zod/')).reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
    const locales = inputs.map(([file]) => /node_modules\/zod\/.*\/locales\/([\w-]+)\.js$/.exec(file)?.[1]).filter((name) => name && name !== 'index');
    expect(output.bytes).toBeLessThanOrEqual(BUNDLE_BUDGET_BYTES);
    expect(zodBytes).toBeLessThanOrEqual(ZOD_BUDGET_BYTES);
    expect(locales).toEqual(['en']);
  }, 60_000);
});
