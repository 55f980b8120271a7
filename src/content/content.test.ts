import { describe, it, expect } from 'vitest';
import {
  BUSINESS_PRICE_PENCE,
  EXTRA_PATCH_PENCE,
  STARTER_PRICE_PENCE,
  computeBasePricePence,
  poundsFromPence,
} from '../domain/pricing.ts';
import { ADDONS, STENCIL_SPECIFICATIONS } from './addons.ts';
import { BUSINESS } from './business.ts';
import { CASE_STUDIES } from './case-studies.ts';
import { FAQ_ITEMS } from './faq.ts';
import { LOCATIONS_SERVED } from './locations-served.ts';
import { PLANS, findPlan } from './plans.ts';
import { HOME_PROCESS_STEPS, HOW_IT_WORKS_STEPS } from './process.ts';
import { SEO_ENTRIES, SEO_PATHS, seoFor } from './seo.ts';
import { STATS } from './stats.ts';

describe('plans', () => {
  it.each([
    ['starter', 'Starter Pack', 5, STARTER_PRICE_PENCE, '/booking', '/booking'],
    ['business', 'Business Pack', 10, BUSINESS_PRICE_PENCE, '/booking', '/booking'],
    ['custom', 'Custom', 10, EXTRA_PATCH_PENCE, '/contact', '/pricing'],
  ] as const)('%s is "%s", %i patches at %i pence, linking to %s (home: %s)', (id, name, patches, pence, href, teaserHref) => {
    expect(findPlan(id)).toMatchObject({ name, patches, price: poundsFromPence(pence), href, teaserHref });
  });

  it('prices the packs with the pricing module', () => {
    expect(findPlan('starter').price).toBe(poundsFromPence(computeBasePricePence(5)));
    expect(findPlan('business').price).toBe(poundsFromPence(computeBasePricePence(10)));
  });

  it('marks only the Business Pack as the July special', () => {
    expect(PLANS.filter((plan) => plan.popular).map((plan) => plan.id)).toEqual(['business']);
    expect(findPlan('business')).toMatchObject({
      originalPrice: 650,
      savings: 100,
      promoText: 'Save £100 - July Special!',
    });
  });

  it('offers Custom as a quote at £45 per extra patch', () => {
    expect(findPlan('custom')).toMatchObject({ ctaText: 'Get Quote', price: 45, priceNote: 'per extra patch' });
  });
});

describe('add-ons', () => {
  it.each([
    ['Rush Job', '+£30 per patch'],
    ['Large Stencil', 'Quote only'],
    ['Night Work', '+£20 per patch'],
    ['Multi-Location (5+ sites)', 'Contact us'],
  ])('%s is priced "%s"', (name, priceLabel) => {
    expect(ADDONS.find((addon) => addon.name === name)?.priceLabel).toBe(priceLabel);
  });

  it('limits stencils to 900x600mm and charges £100 for a change', () => {
    expect(STENCIL_SPECIFICATIONS).toMatchObject({ maxWidthMm: 900, maxHeightMm: 600, changeAfterApprovalPence: 10_000 });
  });
});

describe('counts the pages rely on', () => {
  it.each([
    ['locations served', LOCATIONS_SERVED.length, 15],
    ['case studies', CASE_STUDIES.length, 4],
    ['stats', STATS.length, 4],
    ['home process steps', HOME_PROCESS_STEPS.length, 3],
    ['how-it-works steps', HOW_IT_WORKS_STEPS.length, 5],
  ])('%s: %i', (_, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('has 6 to 8 FAQ items', () => {
    expect(FAQ_ITEMS.length).toBeGreaterThanOrEqual(6);
    expect(FAQ_ITEMS.length).toBeLessThanOrEqual(8);
  });

  it('lists the locations in the spec order', () => {
    expect(LOCATIONS_SERVED).toEqual([
      'Manchester', 'Leeds', 'Liverpool', 'Sheffield', 'Newcastle',
      'Greater Manchester', 'West Yorkshire', 'Merseyside', 'South Yorkshire', 'Tyne and Wear',
      'Bradford', 'Blackpool', 'Preston', 'Lancaster', 'Carlisle',
    ]);
  });

  it('shows the spec stats', () => {
    expect(STATS.map((stat) => `${stat.value} ${stat.label}`)).toEqual([
      '500+ Patches Created',
      '150+ Happy Clients',
      '50+ Cities Covered',
      '100% Eco-Friendly',
    ]);
  });
});

describe('business', () => {
  it('uses the same phone number for display and for calls', () => {
    expect(BUSINESS.phoneHref).toBe(`tel:${BUSINESS.phoneE164}`);
    expect(BUSINESS.phone.replace(/\s/g, '').slice(1)).toBe(BUSINESS.phoneE164.slice(3));
  });

  it('lists the footer services', () => {
    expect(BUSINESS.services).toEqual(['Reverse Graffiti', 'Brand Campaigns', 'Event Marketing', 'Custom Stencils']);
  });
});

describe('seoFor', () => {
  it.each([
    ['/', '/'],
    ['/pricing', '/pricing'],
    ['/pricing/', '/pricing'],
    ['/booking?plan=business', '/booking'],
    ['/gallery/42', '/gallery/[id]'],
    ['/gallery/42/extra', '/404'],
    ['/no-such-page', '/404'],
  ] as const)('%s uses the %s entry', (path, key) => {
    expect(seoFor(path)).toBe(SEO_ENTRIES[key]);
  });

  it.each(SEO_PATHS.map((path) => [path]))('%s has a description of 140-160 characters', (path) => {
    expect(SEO_ENTRIES[path].description.length).toBeGreaterThanOrEqual(140);
    expect(SEO_ENTRIES[path].description.length).toBeLessThanOrEqual(160);
  });

  it('keeps checkout and tracking out of search results', () => {
    expect(seoFor('/checkout').noindex).toBe(true);
    expect(seoFor('/track-project').noindex).toBe(true);
    expect(seoFor('/pricing').noindex).toBe(false);
  });
});
