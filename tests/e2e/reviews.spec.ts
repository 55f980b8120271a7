import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

// db/seed.ts publishes 8 reviews; the newest is Imran A.'s (5 stars, timeliness 4).
const EMPTY_MESSAGE = 'Customer reviews will appear here once submitted.';
const ISLAND_SCRIPT = /(ReviewsCarousel|ReviewsSlider|keen-slider)[^/]*\.js$/i;

async function openReviews(page: Page) {
  await page.goto('/gallery');
  await page.locator('#reviews').scrollIntoViewIfNeeded();
}

/** Waits until keen-slider has taken over the slides (it sizes them itself). */
async function sliderReady(page: Page) {
  await expect(page.locator('#reviews .keen-slider__slide').first()).toHaveAttribute('style', /min-width/);
}

/** The slides wholly inside the carousel's box, left to right, with their width as a share of it. */
async function visibleSlides(page: Page) {
  return page.locator('#reviews .keen-slider').evaluate((container) => {
    const box = container.getBoundingClientRect();
    return [...container.querySelectorAll('.keen-slider__slide')]
      .map((slide) => ({ label: slide.getAttribute('aria-label'), rect: slide.getBoundingClientRect() }))
      .filter(({ rect }) => rect.width > 0 && rect.left >= box.left - 1 && rect.right <= box.right + 1)
      .sort((a, b) => a.rect.left - b.rect.left)
      .map(({ label, rect }) => ({ label, share: rect.width / box.width }));
  });
}

async function expectPerView(page: Page, perView: number) {
  await sliderReady(page);
  await expect.poll(async () => (await visibleSlides(page)).length).toBe(perView);
  for (const slide of await visibleSlides(page)) {
    // Each card takes its share of the row, less the gaps between cards.
    expect(slide.share).toBeGreaterThan(1 / perView - 0.06);
    expect(slide.share).toBeLessThanOrEqual(1 / perView + 0.001);
  }
}

const firstVisible = async (page: Page) => (await visibleSlides(page))[0]?.label;

test.describe('reviews carousel on /gallery', () => {
  test('shows the 6 newest of the 8 seeded reviews, newest first, with stars in words', async ({ page }) => {
    await openReviews(page);
    const carousel = page.getByRole('region', { name: 'Customer reviews' });
    await expect(carousel.getByText('Showing 6 of 8 reviews')).toBeVisible();
    const slides = carousel.locator('[aria-roledescription="slide"]');
    await expect(slides).toHaveCount(6);
    await expect(slides.first()).toHaveAccessibleName('1 of 6');
    await expect(slides.first()).toContainText('Imran A.');
    await expect(slides.first()).toContainText('November 2026');

    await expect(slides.first().getByRole('img', { name: 'Rated 5 out of 5' }).first()).toBeAttached();
    const timeliness = slides.first().locator('dl > div', { hasText: 'Timeliness' });
    await expect(timeliness.getByRole('img')).toHaveAccessibleName('Rated 4 out of 5');
    // Every slide: an overall rating and three sub-ratings, each with its words.
    await expect(carousel.getByRole('img', { name: /^Rated [1-5] out of 5$/ })).toHaveCount(6 * 4);
  });

  test('shows 1 review per view on a 375 px phone @mobile', async ({ page }) => {
    await openReviews(page);
    await expectPerView(page, 1);
  });

  test('shows 3 reviews per view at 1280 px @desktop', async ({ page }) => {
    await openReviews(page);
    await expectPerView(page, 3);
  });

  test('shows 2 reviews per view at 768 px @desktop', async ({ browser }, testInfo) => {
    const context = await browser.newContext({
      viewport: { width: 768, height: 1000 },
      baseURL: testInfo.project.use.baseURL,
    });
    const page = await context.newPage();
    try {
      await openReviews(page);
      await expectPerView(page, 2);
    } finally {
      await context.close();
    }
  });

  test('a second press during the slide counts from where the first one is going', { tag: '@layout' }, async ({ page }) => {
    await openReviews(page);
    await sliderReady(page);
    await expect.poll(() => firstVisible(page)).toBe('1 of 6');
    // Both presses in the same moment: the second lands while the first slide has barely begun,
    // and still moves one review further (counted from the current position it would not).
    await page.evaluate(() => {
      const next = document.querySelector<HTMLButtonElement>('#reviews button[aria-label="Next reviews"]')!;
      next.click();
      next.click();
    });
    await expect(page.locator('#reviews [aria-live="polite"]')).toHaveText('Review 3 of 6');
    await expect.poll(() => firstVisible(page)).toBe('3 of 6');
  });

  test('moves with labelled previous/next buttons, by keyboard, and loops', { tag: '@layout' }, async ({ page }) => {
    await openReviews(page);
    await sliderReady(page);
    await expect.poll(() => firstVisible(page)).toBe('1 of 6');

    const next = page.getByRole('button', { name: 'Next reviews' });
    const previous = page.getByRole('button', { name: 'Previous reviews' });
    await next.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => firstVisible(page)).toBe('2 of 6');

    await previous.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => firstVisible(page)).toBe('1 of 6');
    await previous.click();
    await expect.poll(() => firstVisible(page)).toBe('6 of 6');
    await expect(page.locator('#reviews [aria-live="polite"]')).toHaveText('Review 6 of 6');
  });

  for (const reducedMotion of ['reduce', 'no-preference'] as const) {
    test(`slides ${reducedMotion === 'reduce' ? 'without' : 'with'} animation when motion preference is ${reducedMotion}`, async ({ page }) => {
      // The page's clock is driven by the test, so where the card is on the first frame of a
      // move does not depend on how busy the machine is.
      await page.clock.install();
      await page.emulateMedia({ reducedMotion });
      await openReviews(page);
      await sliderReady(page);
      const firstCardLeft = () =>
        page.locator('#reviews .keen-slider__slide').first().evaluate((slide) => slide.getBoundingClientRect().left);
      await page.clock.pauseAt(Date.now() + 60_000);
      const before = await firstCardLeft();
      await page.getByRole('button', { name: 'Next reviews' }).click();
      // Step the clock a frame at a time until the card first moves, and note where it is then.
      let firstMove = before;
      await expect
        .poll(async () => {
          await page.clock.runFor(16);
          firstMove = await firstCardLeft();
          return firstMove !== before;
        })
        .toBe(true);
      await page.clock.runFor(2_000);
      const after = await firstCardLeft();
      expect(after).toBeLessThan(before - 50);
      if (reducedMotion === 'reduce') {
        // One jump, straight to where it ends.
        expect(firstMove).toBe(after);
      } else {
        // Part of the way there: moving, not yet arrived.
        expect(firstMove).toBeLessThan(before);
        expect(firstMove).toBeGreaterThan(after);
      }
    });
  }

  test('hydrates only once scrolled into view, within the page\'s CSP', async ({ page }) => {
    const requested: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    await page.goto('/gallery');
    await page.waitForLoadState('networkidle');
    const island = page.locator('#reviews astro-island');
    await expect(island).toHaveAttribute('ssr', '');
    await expect(island).toHaveAttribute('client', 'visible');
    expect(requested.filter((url) => ISLAND_SCRIPT.test(url) || url.endsWith('/api/reviews/public'))).toEqual([]);

    await page.locator('#reviews').scrollIntoViewIfNeeded();
    await expect(page.getByText('Showing 6 of 8 reviews')).toBeVisible();
    await expect(island).not.toHaveAttribute('ssr', '');
    expect(requested.some((url) => /ReviewsCarousel\.[\w-]+\.js$/.test(url))).toBe(true);
    expect(requested.some((url) => /ReviewsSlider\.[\w-]+\.js$/.test(url))).toBe(true);
    expect(requested.some((url) => url.endsWith('/api/reviews/public'))).toBe(true);
    // keen-slider styles slides through the CSSOM, which the CSP allows; inline style attributes it would refuse.
    await page.getByRole('button', { name: 'Next reviews' }).click();
    await expect.poll(() => firstVisible(page)).toBe('2 of 6');
    expect(refused).toEqual([]);
  });

  test('reserves its height while loading, so nothing below moves', { tag: '@layout' }, async ({ page }) => {
    let answer: (() => Promise<void>) | undefined;
    const held = new Promise<void>((resolve) => {
      void page.route('**/api/reviews/public', async (route) => {
        answer = () => route.continue();
        resolve();
      });
    });
    await openReviews(page);
    await held;
    await expect(page.locator('#reviews [data-state="loading"]')).toBeVisible();
    const loading = await page.locator('#reviews').boundingBox();
    await answer!();
    await expect(page.locator('#reviews [data-state="ready"]')).toBeVisible();
    await sliderReady(page);
    const ready = await page.locator('#reviews').boundingBox();
    expect(ready!.height).toBe(loading!.height);
  });

  test('says so when there are no reviews yet', async ({ page }) => {
    await page.route('**/api/reviews/public', (route) => route.fulfill({ json: [] }));
    await openReviews(page);
    await expect(page.getByText(EMPTY_MESSAGE)).toBeVisible();
    await expect(page.getByText(/^Showing \d+ of \d+ reviews$/)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Next reviews' })).toHaveCount(0);
    const results = await new AxeBuilder({ page }).include('#reviews').analyze();
    expect(results.violations).toEqual([]);
  });

  test('shows a quiet message, not a crash, when reviews cannot be loaded', async ({ page }) => {
    await page.route('**/api/reviews/public', (route) => route.fulfill({ status: 500, json: { error: 'Internal error' } }));
    await openReviews(page);
    await expect(page.getByText('Reviews could not be loaded just now. Please try again later.')).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    await expect(page.locator('#reviews').getByRole('heading', { level: 2 })).toBeVisible();
  });

  test('has no accessibility violations in the reviews section', { tag: '@layout' }, async ({ page }) => {
    await openReviews(page);
    await expect(page.getByText('Showing 6 of 8 reviews')).toBeVisible();
    await sliderReady(page);
    const results = await new AxeBuilder({ page })
      .include('#reviews')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    expect(results.violations).toEqual([]);
  });
});
