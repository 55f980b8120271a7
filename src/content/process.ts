import * as z from '../domain/zod.ts';
import { STENCIL_CHANGE_PENCE, formatPounds } from '../domain/pricing.ts';

// Process copy for the home page and /how-it-works (public-site.md sections 1, 2 and 9).
// The customer tracking timeline's steps live in src/domain/project-steps.ts.

const titledItemSchema = z.object({
  title: z.string().min(1),
  description: z.string().min(1),
});

export type ProcessItem = z.infer<typeof titledItemSchema>;

export const HOME_PROCESS_STEPS = z.array(titledItemSchema).length(3).parse([
  {
    title: 'Upload Brand',
    description: 'Book online and upload your logo or artwork in a couple of minutes.',
  },
  {
    title: 'We Stencil & Spray',
    description: 'We cut a precision stencil and clean your design in with water only.',
  },
  {
    title: 'Clean Design on Pavement',
    description: 'Your brand appears on busy streets, then fades naturally within weeks.',
  },
]);

export const howItWorksStepSchema = titledItemSchema.extend({
  step: z.number().int().min(1).max(5),
  /** Only where the spec gives one. */
  timeframe: z.string().min(1).optional(),
});

export type HowItWorksStep = z.infer<typeof howItWorksStepSchema>;

export const HOW_IT_WORKS_STEPS = z.array(howItWorksStepSchema).length(5).parse([
  {
    step: 1,
    title: 'Upload Assets',
    description:
      'Choose your date, locations and number of patches, then upload your logo or artwork as a PNG, JPG, SVG or PDF (up to 10MB).',
  },
  {
    step: 2,
    title: 'Stencil Design',
    description:
      'Our team turns your artwork into a precision stencil of up to 900x600mm, optimised for a crisp result on the pavement.',
    timeframe: '2-3 business days',
  },
  {
    step: 3,
    title: 'Approval',
    description: `We send you the stencil design to sign off before production. Check it carefully: a change after approval costs ${formatPounds(STENCIL_CHANGE_PENCE)} because the stencil has to be remanufactured.`,
  },
  {
    step: 4,
    title: 'On-site Application',
    description:
      'Our crew cleans your design into naturally dirty pavement using water only, during the day (9am - 5pm) or overnight (6pm - 6am).',
    timeframe: 'On your booked date',
  },
  {
    step: 5,
    title: 'Proof and Completion',
    description:
      'We photograph every patch so you can see the result in your project tracker. Campaigns are completed within 5-7 working days.',
    timeframe: 'Same day as installation',
  },
]);

export const SCIENCE_ITEMS = z.array(titledItemSchema).length(3).parse([
  {
    title: 'Water-Only Cleaning',
    description:
      'We use nothing but water to lift away the dirt inside the stencil. No paint, no chemicals and nothing left behind.',
  },
  {
    title: 'Precision Stenciling',
    description:
      'A custom-made stencil protects the surrounding pavement, so the clean area forms sharp lettering and logo detail.',
  },
  {
    title: 'Temporary Impact',
    description:
      'As the pavement weathers and people walk over it, the design fades naturally over 2-6 weeks. No removal is ever needed.',
  },
]);

const pointsSchema = z.array(z.string().min(1)).min(2);

export const QUALITY_COMPLIANCE_POINTS = pointsSchema.parse([
  'Legal and compliant: we only clean, we never paint',
  'Environment Agency approved',
  'Fully insured, including public liability cover',
  '100% water-only process with no chemicals',
  'Photo proof of every patch we create',
]);

export const IMPORTANT_INFORMATION_POINTS = pointsSchema.parse([
  `A stencil change after sign-off costs an extra ${formatPounds(STENCIL_CHANGE_PENCE)} because the stencil has to be remanufactured.`,
  'Only naturally dirty, untreated surfaces qualify. Sealed, painted or freshly cleaned paving will not show the design.',
  'Patches are temporary and fade over 2-6 weeks depending on weather and footfall.',
  'If bad weather stops an installation, we reschedule it free of charge.',
]);

// The booking confirmation screen's promises (public-site.md section 2, "Booking").
export const BOOKING_CONFIRMATION_POINTS = pointsSchema.parse([
  'We will contact you within 24 hours to discuss your design',
  'You will receive a confirmation email with your booking details',
  'Your campaign will be completed within 5-7 working days',
  'You will receive photo proof of every patch',
]);
