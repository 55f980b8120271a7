import { describe, expect, it } from 'vitest';
import { fitWithin, jpegName } from './scale-image.ts';

describe('fitWithin', () => {
  it.each([
    [4032, 3024, 2560, 2560, 1920],
    [3024, 4032, 2560, 1920, 2560],
    [4032, 3024, 480, 480, 360],
    [800, 600, 2560, 800, 600],
    [2560, 2560, 2560, 2560, 2560],
    [10000, 10, 480, 480, 1],
  ])('%i×%i within %i → %i×%i', (width, height, maxSide, expectedWidth, expectedHeight) => {
    expect(fitWithin(width, height, maxSide)).toEqual({ width: expectedWidth, height: expectedHeight });
  });
});

describe('jpegName', () => {
  it.each([
    ['IMG_0042.HEIC', 'IMG_0042.jpg'],
    ['shop front.png', 'shop front.jpg'],
    ['no-extension', 'no-extension.jpg'],
    ['.png', 'photo.jpg'],
  ])('%s → %s', (name, expected) => {
    expect(jpegName(name)).toBe(expected);
  });
});
