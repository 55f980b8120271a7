import * as z from '../domain/zod.ts';
import {
  BUSINESS_ORIGINAL_PRICE_PENCE,
  BUSINESS_PATCHES,
  CUSTOM_MIN_PATCHES,
  EXTRA_PATCH_PENCE,
  JULY_SPECIAL_SAVINGS_PENCE,
  STARTER_PATCHES,
  computeBasePricePence,
  formatPounds,
  poundsFromPence,
} from '../domain/pricing.ts';

// The three plan cards (public-site.md sections 2, 3 and 9). Prices are in pounds, as the spec's
// Plan record shows them, and come from the pricing module so the numbers live in one place.

export const PLAN_IDS = ['starter', 'business', 'custom'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export { MOST_POPULAR_LABEL } from './plan-labels.ts';

export const planSchema = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string().min(1),
  /** Patches included; for Custom, the smallest custom order. */
  patches: z.number().int().positive(),
  patchesLabel: z.string().min(1),
  /** Pounds. For Custom, the price of each patch above 10. */
  price: z.number().positive(),
  priceNote: z.string().min(1).optional(),
  originalPrice: z.number().positive().optional(),
  savings: z.number().positive().optional(),
  promoText: z.string().min(1).optional(),
  description: z.string().min(1),
  features: z.array(z.string().min(1)).min(3),
  popular: z.boolean(),
  ctaText: z.string().min(1),
  /** Where the card's button goes on /pricing. */
  href: z.enum(['/booking', '/contact']),
  /** Where the card's button goes in the home page teaser (section 2, "Home"). */
  teaserHref: z.enum(['/booking', '/pricing']),
});

export type Plan = z.infer<typeof planSchema>;

export const PLANS = z.array(planSchema).length(3).parse([
  {
    id: 'starter',
    name: 'Starter Pack',
    patches: STARTER_PATCHES,
    patchesLabel: `${STARTER_PATCHES} patches`,
    price: poundsFromPence(computeBasePricePence(STARTER_PATCHES)),
    description: 'Test the water with a compact campaign around one neighbourhood or venue.',
    features: [
      `${STARTER_PATCHES} reverse graffiti patches`,
      'One custom stencil up to 900x600mm',
      'Water-only, eco-friendly cleaning',
      'Photo proof of every patch',
      'Online project tracking',
    ],
    popular: false,
    ctaText: 'Book Starter Pack',
    href: '/booking',
    teaserHref: '/booking',
  },
  {
    id: 'business',
    name: 'Business Pack',
    patches: BUSINESS_PATCHES,
    patchesLabel: `${BUSINESS_PATCHES} patches`,
    price: poundsFromPence(computeBasePricePence(BUSINESS_PATCHES)),
    // Spec figures, quoted as given (section 3, "Plan records"; section 9, "Plans").
    originalPrice: poundsFromPence(BUSINESS_ORIGINAL_PRICE_PENCE),
    savings: poundsFromPence(JULY_SPECIAL_SAVINGS_PENCE),
    promoText: 'Save £100 - July Special!',
    description: 'Our best value pack for high-footfall streets, launches and city-wide visibility.',
    features: [
      `${BUSINESS_PATCHES} reverse graffiti patches`,
      'One custom stencil up to 900x600mm',
      'Spread across several locations',
      'Day or night installation',
      'Photo proof of every patch',
      'Online project tracking',
    ],
    popular: true,
    ctaText: 'Book Business Pack',
    href: '/booking',
    teaserHref: '/booking',
  },
  {
    id: 'custom',
    name: 'Custom',
    patches: CUSTOM_MIN_PATCHES,
    patchesLabel: `${CUSTOM_MIN_PATCHES}+ patches`,
    price: poundsFromPence(EXTRA_PATCH_PENCE),
    priceNote: 'per extra patch',
    description: `Larger multi-site campaigns: the Business Pack price plus ${formatPounds(EXTRA_PATCH_PENCE)} for every patch above ${BUSINESS_PATCHES}.`,
    features: [
      `Any quantity from ${CUSTOM_MIN_PATCHES} patches`,
      'Multi-location and multi-city rollouts',
      'Large stencils above 900x600mm by quote',
      'Campaign planning with our team',
      'Photo proof of every patch',
    ],
    popular: false,
    ctaText: 'Get Quote',
    href: '/contact',
    teaserHref: '/pricing',
  },
]);

export function findPlan(id: PlanId): Plan {
  const plan = PLANS.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`Unknown plan: ${id}`);
  return plan;
}
