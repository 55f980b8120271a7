import * as z from '../domain/zod.ts';
import {
  BUSINESS_PRICE_PENCE,
  EXTRA_PATCH_PENCE,
  MIN_PATCHES,
  NIGHT_SURCHARGE_PER_PATCH_PENCE,
  RUSH_PER_PATCH_PENCE,
  STARTER_PRICE_PENCE,
  STENCIL_CHANGE_PENCE,
  formatPounds,
} from '../domain/pricing.ts';

// The How It Works FAQ accordion (public-site.md section 2). The spec gives no answers; these
// restate its facts (sections 1 and 9).

export const faqItemSchema = z.object({
  question: z.string().min(1).endsWith('?'),
  answer: z.string().min(1),
});

export type FaqItem = z.infer<typeof faqItemSchema>;

export const FAQ_ITEMS = z.array(faqItemSchema).min(6).max(8).parse([
  {
    question: 'What is reverse graffiti?',
    answer:
      'Reverse graffiti creates an image by cleaning rather than painting. We place a stencil of your design on a naturally dirty pavement and clean through it with water, so your brand appears as a crisp, clean patch against the surrounding grime.',
  },
  {
    question: 'Is reverse graffiti legal?',
    answer:
      'Yes. We only use water and never add paint or chemicals, so nothing is applied to the pavement. Our work is legal and compliant, Environment Agency approved, and we are fully insured with public liability cover.',
  },
  {
    question: 'How long does a patch last?',
    answer:
      'Patches are temporary and fade naturally over 2-6 weeks as the pavement weathers and footfall passes over it. No removal is ever needed.',
  },
  {
    question: 'What is the minimum order and how much does it cost?',
    answer: `The minimum order is ${MIN_PATCHES} patches. The Starter Pack is ${formatPounds(STARTER_PRICE_PENCE)} for ${MIN_PATCHES} patches, 6 to 10 patches cost ${formatPounds(BUSINESS_PRICE_PENCE)} (our Business Pack), and each patch above 10 costs ${formatPounds(EXTRA_PATCH_PENCE)}. Night work adds ${formatPounds(NIGHT_SURCHARGE_PER_PATCH_PENCE)} per patch.`,
  },
  {
    question: 'How big can my design be?',
    answer:
      'Standard stencils are up to 900x600mm. Larger stencils are available by quote. Bold logos, lettering and simple shapes give the sharpest result, and we accept PNG, JPG, SVG or PDF artwork up to 10MB.',
  },
  {
    question: 'How long does a campaign take?',
    answer: `We contact you within 24 hours of booking, the stencil takes 2-3 business days and scheduling 3-5 business days. Most campaigns are completed within 5-7 working days, with photos of every patch on the day of installation. Need it sooner? A Rush Job (+${formatPounds(RUSH_PER_PATCH_PENCE)} per patch) is completed in 2-3 days.`,
  },
  {
    question: 'Which surfaces can you work on?',
    answer:
      'Only naturally dirty, untreated surfaces qualify, such as weathered paving slabs and concrete. A surface that has been sealed, painted or recently cleaned will not show the design, so we check every location before we install.',
  },
  {
    question: 'Can I change my design after approving the stencil?',
    answer: `Yes, but a change after sign-off costs an extra ${formatPounds(STENCIL_CHANGE_PENCE)} because the stencil has to be remanufactured. Please check your proof carefully before you approve it.`,
  },
]);
