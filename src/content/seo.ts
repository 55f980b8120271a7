import * as z from '../domain/zod.ts';
import {
  BUSINESS_PATCHES,
  BUSINESS_PRICE_PENCE,
  EXTRA_PATCH_PENCE,
  STARTER_PATCHES,
  STARTER_PRICE_PENCE,
  formatPounds,
} from '../domain/pricing.ts';

// Per-route <title>, description and keywords (public-site.md section 2: set for every page, texts
// not given). Descriptions are 140-160 characters so search results show them whole.

export const seoEntrySchema = z.object({
  title: z.string().min(10).max(70),
  description: z.string().min(140).max(160),
  keywords: z.array(z.string().min(1)).min(3),
  /** Pages personal to one customer, or with no content of their own, stay out of search results. */
  noindex: z.boolean().default(false),
});

export type SeoEntry = z.infer<typeof seoEntrySchema>;

export const SEO_PATHS = [
  '/',
  '/booking',
  '/pricing',
  '/how-it-works',
  '/gallery',
  '/gallery/[id]',
  '/contact',
  '/about',
  '/track-project',
  '/review',
  '/reschedule',
  '/checkout',
  '/payment-success',
  '/terms',
  '/privacy',
  '/admin',
  '/admin/accept',
  '/crew',
  '/404',
] as const;

export type SeoPath = (typeof SEO_PATHS)[number];

const seoEntriesSchema = z
  .record(z.enum(SEO_PATHS), seoEntrySchema)
  .refine((entries) => new Set(Object.values(entries).map((entry) => entry.title)).size === SEO_PATHS.length, {
    error: 'Every page needs its own title',
  })
  .refine(
    (entries) => new Set(Object.values(entries).map((entry) => entry.description)).size === SEO_PATHS.length,
    { error: 'Every page needs its own description' },
  );

export const SEO_ENTRIES = seoEntriesSchema.parse({
  '/': {
    title: 'Reverse Graffiti Advertising in North England | Clean Patch',
    description:
      'Eco-friendly reverse graffiti advertising: we clean your brand into dirty pavements with water only. Legal, fully insured and seen across North England.',
    keywords: [
      'reverse graffiti',
      'pavement advertising',
      'eco-friendly street marketing',
      'clean graffiti',
      'North England advertising',
    ],
  },
  '/booking': {
    title: 'Book Your Reverse Graffiti Campaign | Clean Patch',
    description:
      'Book reverse graffiti patches online: choose your date, day or night work and locations, upload your artwork and pay securely. Minimum order of 5 patches.',
    keywords: ['book reverse graffiti', 'pavement advertising booking', 'street marketing campaign', 'clean patches'],
  },
  '/pricing': {
    title: 'Reverse Graffiti Prices and Packages | Clean Patch',
    description:
      `Clear pricing for pavement advertising: ${STARTER_PATCHES} patches for ${formatPounds(STARTER_PRICE_PENCE)}, ${BUSINESS_PATCHES} patches for ${formatPounds(BUSINESS_PRICE_PENCE)}, then ${formatPounds(EXTRA_PATCH_PENCE)} per extra patch. See add-ons, night work and stencil specifications.`,
    keywords: ['reverse graffiti prices', 'pavement advertising cost', 'street marketing packages', 'stencil advertising'],
  },
  '/how-it-works': {
    title: 'How Reverse Graffiti Works | Clean Patch',
    description:
      'From artwork upload to stencil, approval, water-only cleaning and photo proof: see how our reverse graffiti works, why it is legal and read the answers to FAQs.',
    keywords: ['how reverse graffiti works', 'water-only cleaning', 'pavement stencil', 'reverse graffiti FAQ'],
  },
  '/gallery': {
    title: 'Our Work: Reverse Graffiti Case Studies | Clean Patch',
    description:
      'See reverse graffiti campaigns we have created in Manchester, Leeds, Liverpool and Newcastle, read client reviews and find the towns and cities we cover.',
    keywords: ['reverse graffiti examples', 'case studies', 'pavement advertising gallery', 'client reviews'],
  },
  '/gallery/[id]': {
    title: 'Completed Reverse Graffiti Project | Clean Patch',
    description:
      'Photos of a completed Clean Patch reverse graffiti project: a brand design cleaned into the pavement with water only, leaving no paint and no chemicals behind.',
    keywords: ['reverse graffiti project', 'completed campaign', 'pavement advertising photos'],
  },
  '/contact': {
    title: 'Contact Us for a Quote | Clean Patch',
    description:
      'Get in touch about reverse graffiti for your brand or event. Call or email our Manchester team for a quote and we will get back to you within 24 hours.',
    keywords: ['contact Clean Patch', 'reverse graffiti quote', 'pavement advertising enquiry', 'Manchester'],
  },
  '/about': {
    title: 'About Clean Patch Reverse Graffiti | Clean Patch',
    description:
      'Clean Patch is a Manchester-based reverse graffiti team. With 500+ patches, 150+ clients and 50+ cities behind us, we make brands impossible to miss.',
    keywords: ['about Clean Patch', 'reverse graffiti company', 'eco-friendly advertising agency', 'Manchester'],
  },
  '/track-project': {
    title: 'Track Your Project | Clean Patch',
    description:
      'Track your reverse graffiti campaign with your email and booking ID. Follow all five steps from design consultation to photo proof, and download your photos.',
    keywords: ['track project', 'booking status', 'reverse graffiti progress'],
    noindex: true,
  },
  '/review': {
    title: 'Review Your Project | Clean Patch',
    description:
      'Tell other businesses how your Clean Patch reverse graffiti campaign went. Rate the work and the service with the single-use review link from your e-mail.',
    keywords: ['review', 'reverse graffiti review', 'customer feedback'],
    noindex: true,
  },
  '/reschedule': {
    title: 'Choose Another Day | Clean Patch',
    description:
      'Rain moved your reverse graffiti installation? Choose another day that still has room with the link from your e-mail. One tap moves your booking for free.',
    keywords: ['reschedule', 'weather', 'installation day'],
    noindex: true,
  },
  '/checkout': {
    title: 'Secure Checkout | Clean Patch',
    description:
      'Review your reverse graffiti booking and pay securely by card. Check your patches, preferred date, location and total before you confirm your campaign with us.',
    keywords: ['checkout', 'secure card payment', 'reverse graffiti booking'],
    noindex: true,
  },
  '/payment-success': {
    title: 'Payment Successful | Clean Patch',
    description:
      'Thank you for your booking. Your payment has been received, and here is what happens next: design consultation, stencil, installation and photos of every patch.',
    keywords: ['payment successful', 'booking confirmed', 'reverse graffiti'],
    noindex: true,
  },
  '/terms': {
    title: 'Terms of Service | Clean Patch',
    description:
      'The terms that apply to Clean Patch reverse graffiti bookings, including payment, our no-refunds policy, free rescheduling for bad weather and stencil changes.',
    keywords: ['terms of service', 'booking terms', 'refund policy', 'Clean Patch'],
  },
  '/privacy': {
    title: 'Privacy Policy | Clean Patch',
    description:
      'How Clean Patch collects, uses and protects your personal data, how long we keep bookings and messages, and how to make a privacy request (answered in 30 days).',
    keywords: ['privacy policy', 'data protection', 'UK GDPR', 'Clean Patch'],
  },
  '/admin': {
    title: 'Admin Dashboard | Clean Patch',
    description:
      'The Clean Patch admin dashboard for staff: manage bookings, project progress, photos, completion emails, worker routes, contact enquiries, logs and analytics.',
    keywords: ['admin', 'dashboard', 'Clean Patch'],
    noindex: true,
  },
  '/admin/accept': {
    title: 'Join the Dashboard | Clean Patch',
    description:
      'Accept an invitation to the Clean Patch dashboard or set a new password from a reset link: choose a strong password and add a passkey for one-tap sign-in.',
    keywords: ['staff account', 'invitation', 'Clean Patch'],
    noindex: true,
  },
  '/crew': {
    title: 'Crew Day | Clean Patch',
    description:
      "A Clean Patch crew's stops for the day, opened from the route e-mail: addresses, day or night hours, directions, On my way, photo proof and Done for each.",
    keywords: ['crew', 'installation route', 'Clean Patch'],
    noindex: true,
  },
  '/404': {
    title: '404 Page Not Found | Clean Patch',
    description:
      'Sorry, we could not find that page. Head back to the Clean Patch home page to explore reverse graffiti advertising, our prices and case studies from the North.',
    keywords: ['page not found', '404', 'Clean Patch'],
    noindex: true,
  },
});

function normalizePath(path: string): string {
  const withoutQuery = path.split(/[?#]/, 1)[0] ?? '';
  const trimmed = withoutQuery.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function isSeoPath(path: string): path is SeoPath {
  return (SEO_PATHS as readonly string[]).includes(path);
}

/** The entry for a URL path; '/gallery/12' uses the project page, anything unknown the 404 page. */
export function seoFor(path: string): SeoEntry {
  const normalized = normalizePath(path);
  if (isSeoPath(normalized)) return SEO_ENTRIES[normalized];
  if (/^\/gallery\/[^/]+$/.test(normalized)) return SEO_ENTRIES['/gallery/[id]'];
  return SEO_ENTRIES['/404'];
}
