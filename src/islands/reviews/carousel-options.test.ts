import { describe, expect, it } from 'vitest';
import { carouselOptions, formatReviewDate, ratingLabel, REVIEWS_SHOWN, showingText } from './carousel-options.ts';

describe('carouselOptions', () => {
  it('shows 1 per view, 2 from 768 px and 3 from 1024 px, looping when there are more', () => {
    const options = carouselOptions(6, false);
    expect(options).toMatchObject({ loop: true, slides: { perView: 1 } });
    expect(options.breakpoints?.['(min-width: 768px)']).toMatchObject({ loop: true, slides: { perView: 2 } });
    expect(options.breakpoints?.['(min-width: 1024px)']).toMatchObject({ loop: true, slides: { perView: 3 } });
    expect(options.defaultAnimation).toBeUndefined();
  });

  it.each([
    [1, false, false, false],
    [2, true, false, false],
    [3, true, true, false],
    [4, true, true, true],
  ])('with %i reviews loops on phones %s, tablets %s, desktops %s', (count, phone, tablet, desktop) => {
    const options = carouselOptions(count, false);
    expect(options.loop).toBe(phone);
    expect(options.breakpoints?.['(min-width: 768px)']?.loop).toBe(tablet);
    expect(options.breakpoints?.['(min-width: 1024px)']?.loop).toBe(desktop);
  });

  it('moves without animation when reduced motion is preferred', () => {
    expect(carouselOptions(6, true).defaultAnimation).toEqual({ duration: 0 });
  });
});

describe('showingText', () => {
  it.each([
    [6, 8, 'Showing 6 of 8 reviews'],
    [6, 50, 'Showing 6 of 50 reviews'],
    [6, 6, null],
    [3, 3, null],
  ])('shown %i of %i → %s', (shown, total, text) => {
    expect(showingText(shown, total)).toBe(text);
  });

  it('shows 6 by default', () => {
    expect(REVIEWS_SHOWN).toBe(6);
  });
});

describe('labels', () => {
  it('says the rating in words', () => {
    expect(ratingLabel(4)).toBe('Rated 4 out of 5');
  });

  it('formats the date as month and year in London time', () => {
    expect(formatReviewDate('2026-10-31T23:30:00Z')).toBe('October 2026');
    expect(formatReviewDate('2026-12-31T23:30:00Z')).toBe('December 2026');
    expect(formatReviewDate('2026-06-30T23:30:00Z')).toBe('July 2026');
  });
});
