/**
 * `npm run font:subset`: writes src/assets/fonts/inter-subset-wght.woff2, the one web font the
 * site loads: Inter's variable (weight axis) Latin file from @fontsource-variable/inter cut down
 * to the characters the site's copy and forms use, with the OpenType features the pages use
 * (kerning, ligatures, contextual alternates, local forms, tabular figures) and no others. Text paints at once
 * in the metric-matched 'Inter Fallback' (src/styles/global.css) and swaps to this when it lands.
 *
 * Needs fontTools with Brotli (`pyftsubset`; on Debian: apt-get install fonttools python3-brotli).
 * The output is committed, so a build never needs it; run it again after upgrading the font
 * package or when copy gains characters outside UNICODE_RANGE (they still show, in the fallback).
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');
const output = path.join(root, 'src/assets/fonts/inter-subset-wght.woff2');

/**
 * Printable ASCII, Latin-1's symbols (£, §, ·, ©), × and é, the dashes, curly quotes, bullet and
 * ellipsis, €, ™, the arrows and minus: every character of the site's own copy. Accented letters
 * a customer may type (ë, ñ) are left to the fallback: they would add a third to the file.
 * Kept equal to the @font-face unicode-range in src/styles/global.css.
 */
export const UNICODE_RANGE =
  'U+0020-007E,U+00A0-00BF,U+00D7,U+00E9,U+2013-2014,U+2018-201D,U+2022,U+2026,U+20AC,U+2122,U+2190-2193,U+2212';
const FEATURES = ['kern', 'liga', 'calt', 'locl', 'tnum'];

const result = spawnSync(
  'pyftsubset',
  [
    source,
    `--unicodes=${UNICODE_RANGE}`,
    `--layout-features=${FEATURES.join(',')}`,
    '--flavor=woff2',
    '--no-hinting',
    '--desubroutinize',
    `--output-file=${output}`,
  ],
  { stdio: 'inherit' },
);
if (result.error || result.status !== 0) {
  console.error('pyftsubset failed or is missing (Debian: apt-get install fonttools python3-brotli)');
  process.exit(1);
}
console.log(`${path.relative(root, output)}: ${statSync(output).size} bytes (from ${statSync(source).size})`);
