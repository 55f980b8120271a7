import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The font file holds only the characters scripts/subset-font.ts keeps; the @font-face in
// global.css must claim exactly those, or the browser would fetch the font for text it cannot
// draw, or draw covered text in the fallback. Read as text: importing the script runs pyftsubset.
const ranges = (text: string) => text.replace(/\s+/g, '').split(',').sort();

describe('the subset font', () => {
  it('is declared for exactly the characters it was cut to', () => {
    const script = readFileSync(new URL('./subset-font.ts', import.meta.url), 'utf8');
    const css = readFileSync(new URL('../src/styles/global.css', import.meta.url), 'utf8');
    const cut = /UNICODE_RANGE =\s*'([^']+)'/.exec(script)?.[1];
    const declared = /unicode-range:([^;]+);/.exec(css)?.[1];
    expect(cut && declared).toBeTruthy();
    expect(ranges(declared!)).toEqual(ranges(cut!));
  });
});
