import { describe, expect, it } from 'vitest';
import { isSvgFile } from './upload.ts';

describe('which files go through the site even when Uploadcare is configured', () => {
  it.each([
    [{ name: 'logo.svg', type: 'image/svg+xml' }, true],
    [{ name: 'LOGO.SVG', type: '' }, true],
    [{ name: 'logo', type: 'image/svg+xml' }, true],
    [{ name: 'logo.png', type: 'image/png' }, false],
    [{ name: 'brief.pdf', type: 'application/pdf' }, false],
  ])('%o → %s', (file, expected) => {
    expect(isSvgFile(file)).toBe(expected);
  });
});
