import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { functionBuildOptions } from '../../../bench/lib/function-bundle.ts';

// Bytes, not times: what a cold start of the API function must parse and run of the app's code
// and the packages it loads at once, bundled into one file (bench/lib/function-bundle.ts; the
// packages loaded on first use left out).
// 1.75 MB since staff accounts: their routes and services (about 30 KB) and the 10 000 most common
// passwords that a new staff password is checked against (83 KB, parsed only when a password is
// set). The WebAuthn library stays outside the bundle (FUNCTION_EXTERNALS, scripts/build-functions.ts), loaded by the first passkey call.
// 1.9 MB since invoices and campaign reports (services/documents/): about 30 KB of code and the two
// faces of Inter embedded in every PDF (82 KB of base64, decoded only by the first document);
// pdfkit itself stays outside the bundle (FUNCTION_EXTERNALS).
// About 8 KB more since the abuse hardening (devices per person, TOTP confirmation, upload quota by
// bytes received, a challenge per ceiling, the SVG size check).
const BUNDLE_BUDGET_BYTES = 1_910_000;
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
