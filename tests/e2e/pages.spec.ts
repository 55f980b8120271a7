import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { computeTotalPricePence, formatPounds } from '../../src/domain/pricing.ts';
import { CASE_STUDIES } from '../../src/content/case-studies.ts';
import { LOCATIONS_SERVED } from '../../src/content/locations-served.ts';
import { HOW_IT_WORKS_STEPS } from '../../src/content/process.ts';
import { FAQ_ITEMS } from '../../src/content/faq.ts';
import { BUSINESS } from '../../src/content/business.ts';

// The static pages of public-site.md §2: content in the HTML, SEO, the FAQ's
// one-open rule, the demo video's fallback, no framework JavaScript and no serious axe findings.

const STATIC_ROUTES = ['/', '/pricing', '/how-it-works', '/gallery', '/contact', '/about', '/terms', '/privacy'] as const;
const NO_FRAMEWORK_ROUTES = ['/pricing', '/how-it-works', '/about', '/terms', '/privacy'] as const;
const AXE_ROUTES = ['/pricing', '/how-it-works', '/gallery', '/contact', '/about', '/terms', '/privacy', '/404'] as const;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&#39;': "'", '&#x27;': "'", '&quot;': '"', '&lt;': '<', '&gt;': '>' };

/** The page's HTML as served, with Astro's entity escapes undone so texts compare as written. */
async function fetchHtml(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status(), `${path} status`).toBe(200);
  expect(response.headers()['content-type']).toContain('text/html');
  return (await response.text()).replace(/&(amp|#39|#x27|quot|lt|gt);/g, (entity) => ENTITIES[entity] ?? entity);
}

function headTag(html: string, pattern: RegExp): string | undefined {
  return pattern.exec(html)?.[1];
}

const price = (quantity: number, workType: 'day' | 'night') => formatPounds(computeTotalPricePence(quantity, workType));

const KEY_CONTENT: Record<(typeof STATIC_ROUTES)[number], readonly string[]> = {
  '/': ['Clean Art That Gets Noticed'],
  '/pricing': [
    'Starter Pack',
    'Business Pack',
    'Custom',
    'Most Popular',
    '£349',
    '£599',
    '£650',
    'Save £100 - July Special!',
    'per extra patch',
    'Rush Job',
    '+£30 per patch',
    'Large Stencil',
    'Quote only',
    'Night Work',
    '+£20 per patch',
    'Multi-Location (5+ sites)',
    'Contact us',
    'Stencil specifications',
    '900x600mm',
    // The worked prices come from the pricing module the server charges with.
    price(5, 'day'),
    price(5, 'night'),
    price(10, 'night'),
    price(12, 'day'),
    price(12, 'night'),
  ],
  '/how-it-works': [
    ...HOW_IT_WORKS_STEPS.map((step) => step.title),
    'Water-Only Cleaning',
    'Precision Stenciling',
    'Temporary Impact',
    '2-6 weeks',
    'Quality and compliance',
    'Important information',
    'remanufactured',
    'Only naturally dirty, untreated surfaces qualify',
    'Frequently asked questions',
    ...FAQ_ITEMS.map((item) => item.question),
  ],
  '/gallery': [
    ...CASE_STUDIES.flatMap((study) => [study.title, study.category, study.location, study.image]),
    '500+',
    '150+',
    '50+',
    '100%',
    'Locations we serve',
    ...LOCATIONS_SERVED,
  ],
  '/contact': [
    BUSINESS.email,
    BUSINESS.phone,
    'Service area',
    BUSINESS.serviceArea,
    '24-hour response time',
    BUSINESS.supportHours.text,
    'save up to £100',
    ...LOCATIONS_SERVED,
  ],
  '/about': ['500+', '150+', '50+', 'Who we are', 'How we work', 'Why water-only'],
  '/terms': [
    'Terms of Service',
    'All sales are final with no refunds',
    'we reschedule it free of charge',
    'costs an extra £100',
    'Only naturally dirty, untreated surfaces qualify',
    'Governing law',
    'England and Wales',
  ],
  '/privacy': [
    'Privacy Policy',
    'Bookings',
    '7 years',
    'Communications',
    '3 years',
    'Analytics',
    '26 months',
    'within 30 days',
    'Stripe',
    'SendGrid',
    'Uploadcare',
    'Netlify',
    'Neon',
    'UK GDPR',
  ],
};

test.describe('static pages: content in the HTML', () => {
  for (const route of STATIC_ROUTES) {
    test(`${route} answers 200 with its content @desktop`, async ({ request }) => {
      const html = await fetchHtml(request, route);
      for (const text of KEY_CONTENT[route]) expect(html, `${route} contains "${text}"`).toContain(text);
    });
  }

  test('the gallery lists exactly the 15 locations served and has the reviews section @desktop', async ({ page }) => {
    await page.goto('/gallery');
    const locations = page.getByRole('heading', { name: 'Locations we serve' }).locator('xpath=ancestor::section').getByRole('listitem');
    await expect(locations).toHaveText([...LOCATIONS_SERVED]);
    await expect(page.locator('section#reviews').getByRole('heading', { name: 'What our clients say' })).toBeVisible();
  });

  test('the case-study images are sized, drawn locally and lazy below the fold', { tag: '@layout' }, async ({ page, request }) => {
    await page.goto('/gallery');
    const images = page.locator('main img');
    await expect(images).toHaveCount(CASE_STUDIES.length);
    for (const [index, study] of CASE_STUDIES.entries()) {
      const image = images.nth(index);
      await expect(image).toHaveAttribute('src', study.image);
      await expect(image).toHaveAttribute('alt', study.imageAlt);
      await expect(image).toHaveAttribute('width', '800');
      await expect(image).toHaveAttribute('height', '500');
      await expect(image).toHaveAttribute('loading', index === 0 ? 'eager' : 'lazy');
      const file = await request.get(study.image);
      expect(file.status()).toBe(200);
      expect(file.headers()['content-type']).toBe('image/svg+xml');
      // Drawn artwork only: nothing that would fetch from another host.
      expect(await file.text()).not.toMatch(/(href|src)="https?:/);
    }
  });

  test('the pricing page links its plans and calls to action as the spec says @desktop', async ({ page }) => {
    await page.goto('/pricing');
    const main = page.locator('main');
    await expect(main.getByRole('link', { name: /Book Starter Pack/ })).toHaveAttribute('href', '/booking');
    await expect(main.getByRole('link', { name: /Book Business Pack/ })).toHaveAttribute('href', '/booking');
    await expect(main.getByRole('link', { name: /Get Quote/ })).toHaveAttribute('href', '/contact');
    const cta = main.locator('section[aria-labelledby="pricing-cta"]');
    await expect(cta.getByRole('link', { name: 'Book Your Patches' })).toHaveAttribute('href', '/booking');
    await expect(cta.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
  });

  test('the contact page offers direct ways to get in touch and the July banner @desktop', async ({ page }) => {
    await page.goto('/contact');
    const enquiry = page.locator('section#enquiry');
    await expect(enquiry.getByRole('link', { name: 'Email your enquiry' })).toHaveAttribute('href', new RegExp(`^${BUSINESS.emailHref}`));
    await expect(enquiry.getByRole('link', { name: `Call ${BUSINESS.phone}` })).toHaveAttribute('href', BUSINESS.phoneHref);
    await expect(enquiry.getByText(BUSINESS.supportHours.text)).toBeVisible();
    const promo = page.locator('section[aria-labelledby="promo-heading"]');
    await expect(promo.getByRole('heading')).toContainText('save up to £100');
    await expect(promo.getByRole('link', { name: 'Book Now' })).toHaveAttribute('href', '/booking');
    await expect(promo.getByRole('link', { name: 'See Pricing' })).toHaveAttribute('href', '/pricing');
  });
});

test.describe('static pages: SEO', () => {
  test('every page has its own title and description, a canonical URL and social cards @desktop', async ({ request }) => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    const origins = new Set<string>();
    for (const route of STATIC_ROUTES) {
      const html = await fetchHtml(request, route);
      const title = headTag(html, /<title>([^<]+)<\/title>/);
      const description = headTag(html, /<meta name="description" content="([^"]+)"/);
      const canonical = headTag(html, /<link rel="canonical" href="([^"]+)"/);
      expect(title, `${route} title`).toBeTruthy();
      expect(description, `${route} description`).toBeTruthy();
      titles.add(title!);
      descriptions.add(description!);
      const url = new URL(canonical!);
      expect(url.pathname).toBe(route);
      origins.add(url.origin);
      expect(headTag(html, /<meta property="og:image" content="([^"]+)"/)).toBe(`${url.origin}/og-image.png`);
      expect(headTag(html, /<meta name="twitter:card" content="([^"]+)"/)).toBe('summary_large_image');
    }
    expect(titles.size).toBe(STATIC_ROUTES.length);
    expect(descriptions.size).toBe(STATIC_ROUTES.length);
    expect(origins.size).toBe(1);
    const image = await request.get('/og-image.png');
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
    const bytes = await image.body();
    // PNG header: width and height are the big-endian words at offsets 16 and 20.
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  test('the 404 page stays out of search results @desktop', async ({ request }) => {
    const response = await request.get('/no-such-page');
    expect(response.status()).toBe(404);
    const html = await response.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toContain('rel="canonical"');
  });

  test('sitemap.xml lists the public pages with absolute URLs and nothing private @desktop', async ({ request }) => {
    const canonical = headTag(await fetchHtml(request, '/'), /<link rel="canonical" href="([^"]+)"/)!;
    const origin = new URL(canonical).origin;
    const response = await request.get('/sitemap.xml');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('xml');
    const xml = await response.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(
      ['/', '/booking', '/pricing', '/how-it-works', '/gallery', '/contact', '/about', '/terms', '/privacy'].map(
        (path) => new URL(path, origin).href,
      ),
    );
  });

  test('robots.txt allows the site, keeps private paths out and points at the sitemap @desktop', async ({ request }) => {
    const canonical = headTag(await fetchHtml(request, '/'), /<link rel="canonical" href="([^"]+)"/)!;
    const response = await request.get('/robots.txt');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/plain');
    const lines = (await response.text()).split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'User-agent: *',
        'Allow: /',
        'Disallow: /admin',
        'Disallow: /checkout',
        'Disallow: /payment-success',
        'Disallow: /api/',
        `Sitemap: ${new URL('/sitemap.xml', canonical).href}`,
      ]),
    );
  });

  for (const route of ['/contact', '/about']) {
    test(`${route} carries LocalBusiness structured data with its service area @desktop`, async ({ page }) => {
      await page.goto(route);
      const json = await page.locator('script[type="application/ld+json"]').textContent();
      const data = JSON.parse(json ?? '{}');
      expect(data).toMatchObject({ '@type': 'LocalBusiness', telephone: BUSINESS.phoneE164, email: BUSINESS.email });
      expect(data.areaServed.map((place: { name: string }) => place.name)).toEqual([...LOCATIONS_SERVED]);
    });
  }
});

test.describe('how it works: behaviours', () => {
  async function expectOneOpenAtATime(page: Page) {
    const items = page.locator('#faq details');
    await expect(items).toHaveCount(FAQ_ITEMS.length);
    const [first, second] = [items.nth(0), items.nth(1)];
    await expect(first).not.toHaveAttribute('open');
    await first.locator('summary').click();
    await expect(first).toHaveAttribute('open', '');
    await expect(first.getByText(FAQ_ITEMS[0]!.answer)).toBeVisible();
    await second.locator('summary').click();
    await expect(second).toHaveAttribute('open', '');
    await expect(first).not.toHaveAttribute('open');
    await expect(first.getByText(FAQ_ITEMS[0]!.answer)).toBeHidden();
    expect(await page.locator('#faq details[open]').count()).toBe(1);
  }

  test('the FAQ keeps one item open at a time', async ({ page }) => {
    await page.goto('/how-it-works#faq');
    await expect(page.locator('#faq details').first()).toHaveAttribute('name', 'faq');
    await expectOneOpenAtATime(page);
  });

  test('the FAQ keeps one item open at a time without <details name> support, through its script', async ({ page }) => {
    await page.goto('/how-it-works#faq');
    // Without the shared name, only the page's own script can close the other items.
    await page.locator('#faq details').evaluateAll((items) => items.forEach((item) => item.removeAttribute('name')));
    await expectOneOpenAtATime(page);
  });

  test('without a demo video URL, the poster and the fallback link show and no video loads', async ({ page }) => {
    await page.goto('/how-it-works');
    const figure = page.locator('[data-demo-video]');
    await expect(figure.locator('video')).toHaveCount(0);
    const link = figure.getByRole('link', { name: 'See our work instead' });
    await link.scrollIntoViewIfNeeded();
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', '/gallery');
    await expect(figure.getByRole('img')).toBeVisible();
  });

  test('a video that fails to load hides itself and shows the fallback link', async ({ page }) => {
    // The build has no video URL, so serve the page as it is built with one: a player with a
    // source that does not exist, and the fallback hidden. The page's own script must swap them.
    await page.route('**/how-it-works', async (route) => {
      const response = await route.fetch();
      const html = (await response.text())
        .replace(
          /(<figure[^>]*data-demo-video[^>]*>)/,
          '$1<div data-demo-player><video controls playsinline preload="metadata"><source src="/missing-demo-video.mp4" type="video/mp4"></video></div>',
        )
        .replace('<div data-demo-fallback>', '<div hidden data-demo-fallback>');
      await route.fulfill({ response, body: html });
    });
    await page.goto('/how-it-works');
    const figure = page.locator('[data-demo-video]');
    await expect(figure.locator('video')).toHaveCount(1);
    await expect(figure.locator('[data-demo-player]')).toBeHidden();
    await expect(figure.locator('[data-demo-fallback]')).toBeVisible();
    await expect(figure.locator('[data-demo-fallback-link]')).toBeVisible();
  });
});

test.describe('static pages: frame and speed', () => {
  test('marks Pricing as the current page in the navigation', { tag: '@layout' }, async ({ page }) => {
    await page.goto('/pricing');
    const current = page.locator('header a[aria-current="page"]');
    await expect(current.first()).toHaveAttribute('href', '/pricing');
    const hrefs = await current.evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(new Set(hrefs)).toEqual(new Set(['/pricing']));
    await expect(page.locator('header a[href="/"]').filter({ hasText: 'Home' }).first()).not.toHaveAttribute('aria-current', 'page');
  });

  for (const route of NO_FRAMEWORK_ROUTES) {
    test(`${route} loads no framework JavaScript`, async ({ page, request }) => {
      const html = await fetchHtml(request, route);
      expect(html).not.toContain('astro-island');
      const scripts: string[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') scripts.push(response.url());
      });
      await page.goto(route);
      await expect(page.locator('h1')).toBeVisible();
      await expect(page.locator('astro-island')).toHaveCount(0);
      expect(scripts.filter((url) => /react|client\.|hydrat|jsx-runtime/i.test(url))).toEqual([]);
      const bytes = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.endsWith('.js'))
          .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).decodedBodySize, 0),
      );
      expect(bytes).toBeLessThan(8_000);
    });
  }

  test('images on the static pages have a size so nothing shifts as they load @mobile', async ({ page }) => {
    for (const route of STATIC_ROUTES) {
      await page.goto(route);
      const unsized = await page
        .locator('main img')
        .evaluateAll((images) => images.filter((image) => !image.getAttribute('width') || !image.getAttribute('height')).map((image) => image.getAttribute('src')));
      expect(unsized, route).toEqual([]);
    }
  });
});

test.describe('static pages: accessibility', () => {
  for (const route of AXE_ROUTES) {
    test(`${route} has no serious or critical axe findings`, { tag: '@layout' }, async ({ page }) => {
      const response = await page.goto(route);
      // The not-found page is served with its honest status, even when asked for by name.
      expect(response?.status()).toBe(route === '/404' ? 404 : 200);
      await expect(page.locator('h1')).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''));
      expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`)).toEqual([]);
    });
  }
});
