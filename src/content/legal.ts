import * as z from '../domain/zod.ts';
import {
  BUSINESS_PATCHES,
  BUSINESS_PRICE_PENCE,
  EXTRA_PATCH_PENCE,
  MIN_PATCHES,
  NIGHT_SURCHARGE_PER_PATCH_PENCE,
  RUSH_PER_PATCH_PENCE,
  STARTER_PRICE_PENCE,
  STENCIL_CHANGE_PENCE,
  formatPounds,
} from '../domain/pricing.ts';
import { HOLD_TERMS } from '../domain/booking-limits.ts';
import { BUSINESS } from './business.ts';
import { STENCIL_SPECIFICATIONS } from './addons.ts';

// The text of /terms and /privacy (public-site.md section 2, "Terms, privacy, about"). The spec
// fixes a few facts (no refunds, free weather rescheduling, the retention periods and the 30-day
// answer); the rest are the ordinary sections a UK business-to-business service publishes.

export const legalSectionSchema = z.object({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  heading: z.string().min(1),
  paragraphs: z.array(z.string().min(1)).min(1),
  points: z.array(z.string().min(1)).optional(),
  /** Text after the list, if any. */
  closing: z.string().min(1).optional(),
});

export type LegalSection = z.infer<typeof legalSectionSchema>;

export const legalPageSchema = z.object({
  title: z.string().min(1),
  /** ISO date shown as "Last updated". */
  lastUpdated: z.iso.date(),
  intro: z.string().min(1),
  sections: z
    .array(legalSectionSchema)
    .min(4)
    .refine((sections) => new Set(sections.map((section) => section.id)).size === sections.length, {
      error: 'Section ids must be unique',
    }),
});

export type LegalPage = z.infer<typeof legalPageSchema>;

const LAST_UPDATED = '2026-11-22';
/** The privacy policy's own date: it changed when invoices got their retention period. */
const PRIVACY_LAST_UPDATED = '2026-11-28';
const STENCIL_MAX = `${STENCIL_SPECIFICATIONS.maxWidthMm}x${STENCIL_SPECIFICATIONS.maxHeightMm}mm`;

// Terms: "all sales are final with no refunds; weather cancellations are rescheduled free".
export const NO_REFUNDS_TEXT = 'All sales are final with no refunds.';
export const WEATHER_RESCHEDULE_TEXT = 'If bad weather cancels an installation, we reschedule it free of charge.';

export const TERMS = legalPageSchema.parse({
  title: 'Terms of Service',
  lastUpdated: LAST_UPDATED,
  intro: `These terms apply to every reverse graffiti campaign booked with ${BUSINESS.legalName} ("${BUSINESS.name}", "we", "us"), online or by agreement with our team. Please read them before you book: by paying for a booking you accept them.`,
  sections: [
    {
      id: 'bookings',
      heading: 'Bookings',
      paragraphs: [
        `The minimum order is ${MIN_PATCHES} patches. Bookings are available from 1 July onwards, for day work (9am - 5pm) or night work (6pm - 6am).`,
        'Your booking is confirmed once payment has been received and we have sent you a confirmation e-mail. We will contact you within 24 hours to discuss your design, and most campaigns are completed within 5-7 working days.',
        HOLD_TERMS,
        'Please make sure the details you give us (contact details, date, locations and instructions) are complete and correct. Tell us straight away if anything changes.',
      ],
    },
    {
      id: 'prices-and-payment',
      heading: 'Prices and payment',
      paragraphs: [
        `Prices are in pounds sterling and are those shown on our pricing page when you book: ${formatPounds(STARTER_PRICE_PENCE)} for ${MIN_PATCHES} patches, ${formatPounds(BUSINESS_PRICE_PENCE)} for 6 to ${BUSINESS_PATCHES} patches, and ${formatPounds(EXTRA_PATCH_PENCE)} for each patch above ${BUSINESS_PATCHES}. Night work adds ${formatPounds(NIGHT_SURCHARGE_PER_PATCH_PENCE)} per patch and a Rush Job adds ${formatPounds(RUSH_PER_PATCH_PENCE)} per patch.`,
        'Online bookings are paid in full by card at checkout. Card payments are processed securely by our payment provider; we never see or store your full card number. Quoted work (large stencils, multi-location campaigns) is payable as set out in your quote.',
      ],
    },
    {
      id: 'cancellations-and-refunds',
      heading: 'Cancellations and refunds',
      paragraphs: [
        `${NO_REFUNDS_TEXT} Once a booking is paid, we begin design work and stencil production for your campaign, so we cannot refund a cancelled booking or unused patches.`,
        'If you need to move your date, contact us as early as possible and we will do our best to find a new one.',
        'Nothing in these terms removes any right you have by law that cannot be excluded.',
      ],
    },
    {
      id: 'weather',
      heading: 'Weather and rescheduling',
      paragraphs: [
        `Reverse graffiti needs suitable conditions. ${WEATHER_RESCHEDULE_TEXT} We will tell you as soon as we can and agree a new date with you.`,
      ],
    },
    {
      id: 'stencil-approval',
      heading: 'Stencil design and approval',
      paragraphs: [
        `We turn your artwork into a stencil of up to ${STENCIL_MAX}; larger stencils are available by quote. Before we make it, we send you the design to approve.`,
        `Please check the design carefully. A stencil change after sign-off costs an extra ${formatPounds(STENCIL_CHANGE_PENCE)} because the stencil has to be remanufactured, and it may move your installation date.`,
      ],
    },
    {
      id: 'your-artwork',
      heading: 'Your artwork and content',
      paragraphs: [
        'You confirm that you own, or have permission to use, the logos, names and artwork you send us, and that your design is lawful and not misleading or offensive. We may decline a design that is not.',
        'You allow us to use your artwork to make your stencil and carry out your campaign. We may photograph completed patches and show them as examples of our work; tell us if you would rather we did not.',
      ],
    },
    {
      id: 'site-suitability',
      heading: 'Locations and site suitability',
      paragraphs: [
        'Only naturally dirty, untreated surfaces qualify. Sealed, painted, recently cleaned or damaged paving will not show the design, so we check every location before we install.',
        'If a location turns out to be unsuitable or inaccessible on the day, we will agree a nearby alternative with you. If you choose a location on private land, you must have the owner’s permission before the installation date.',
      ],
    },
    {
      id: 'results',
      heading: 'How long patches last',
      paragraphs: [
        'Patches are temporary and normally fade over 2-6 weeks. How long a patch stays visible depends on the weather, footfall and street cleaning, which are outside our control, so we cannot guarantee a particular period.',
        'We photograph every patch on the day of installation and share the photos in your project tracker as proof of completion.',
      ],
    },
    {
      id: 'liability',
      heading: 'Our liability',
      paragraphs: [
        'We are fully insured, including public liability cover, and we use water only: no paint and no chemicals.',
        'We are not responsible for indirect or consequential losses, or for loss of profit, business or opportunity. Our total liability for a booking is limited to the amount you paid for it.',
        'Nothing in these terms limits our liability for death or personal injury caused by our negligence, for fraud, or for anything else that cannot be limited by law.',
      ],
    },
    {
      id: 'changes',
      heading: 'Changes to these terms',
      paragraphs: [
        'We may update these terms from time to time. The version published when you book applies to that booking.',
      ],
    },
    {
      id: 'governing-law',
      heading: 'Governing law',
      paragraphs: [
        'These terms are governed by the laws of England and Wales, and the courts of England and Wales have jurisdiction over any dispute about them.',
      ],
    },
    {
      id: 'contact',
      heading: 'Contact us',
      paragraphs: [
        `Questions about these terms? E-mail ${BUSINESS.email} or call ${BUSINESS.phone} (${BUSINESS.supportHours.text}).`,
      ],
    },
  ],
});

/** How long each kind of record is kept (public-site.md section 2, "Privacy"). */
export const retentionPeriodSchema = z.object({
  record: z.string().min(1),
  period: z.string().min(1),
  reason: z.string().min(1),
});

export type RetentionPeriod = z.infer<typeof retentionPeriodSchema>;

export const DATA_RETENTION = z.array(retentionPeriodSchema).length(3).parse([
  {
    record: 'Bookings',
    period: '7 years',
    reason: 'Booking and payment records, kept for tax and accounting law.',
  },
  {
    record: 'Communications',
    period: '3 years',
    reason: 'E-mails, enquiries and messages, kept so we can answer follow-up questions.',
  },
  {
    record: 'Analytics',
    period: '26 months',
    reason: 'Page-view records, kept to compare seasons year on year.',
  },
]);

/** Privacy requests are answered within this many days (public-site.md section 2, "Privacy"). */
export const PRIVACY_REQUEST_DAYS = 30;

export const processorSchema = z.object({
  name: z.string().min(1),
  purpose: z.string().min(1),
});

export const DATA_PROCESSORS = z.array(processorSchema).min(5).parse([
  { name: 'Stripe', purpose: 'Takes card payments. Your card details go straight to Stripe, never to us.' },
  { name: 'SendGrid', purpose: 'Sends our e-mails, such as booking confirmations and replies to enquiries.' },
  { name: 'Uploadcare', purpose: 'Receives and stores the artwork files you upload with a booking.' },
  { name: 'Netlify', purpose: 'Hosts this website and the services behind it.' },
  { name: 'Neon', purpose: 'Hosts our database of bookings, enquiries and reviews.' },
  {
    name: 'OpenStreetMap',
    purpose: 'Provides the map and address look-ups on the booking form; your browser loads map images from it.',
  },
]);

export const PRIVACY = legalPageSchema.parse({
  title: 'Privacy Policy',
  lastUpdated: PRIVACY_LAST_UPDATED,
  intro: `This policy explains what personal data ${BUSINESS.legalName} collects when you visit our website, book a campaign or get in touch, why we use it, who helps us process it, how long we keep it and the rights you have under UK data protection law.`,
  sections: [
    {
      id: 'who-we-are',
      heading: 'Who we are',
      paragraphs: [
        `${BUSINESS.legalName}, based in ${BUSINESS.address.locality}, is the controller of your personal data. You can reach us about privacy at ${BUSINESS.email} or on ${BUSINESS.phone}.`,
      ],
    },
    {
      id: 'what-we-collect',
      heading: 'What we collect',
      paragraphs: ['We only collect what we need to run your campaign and our website:'],
      points: [
        'Booking details: your name, business name, e-mail address, phone number, preferred date, work type, campaign locations and instructions.',
        'Artwork: the logo and design files you upload. When you book again, the new booking uses the same files; we do not copy them.',
        'Payment records: the amount, date and payment reference. Card details are handled by Stripe and never reach us.',
        'Enquiries and reviews: your name, contact details and what you write to us, and the reviews you choose to submit.',
        'Website use: the pages you visit, when, the page that referred you, your browser type and an approximate location (town and country) worked out from your connection. We do not keep your IP address with these records.',
      ],
    },
    {
      id: 'why-we-use-it',
      heading: 'Why we use it',
      paragraphs: ['We use your data on these lawful bases under the UK GDPR:'],
      points: [
        'To take, carry out and support your booking, including photo proof and project tracking (performing our contract with you).',
        'To answer your enquiries and improve our website, and to keep it secure and free of abuse (our legitimate interests).',
        'To keep accounting and tax records (our legal obligations).',
        'To publish your review on our website, only when you submit it for that purpose (your consent, which you can withdraw).',
      ],
      closing: 'We do not sell your data and we do not use it for advertising profiles.',
    },
    {
      id: 'processors',
      heading: 'Who processes it for us',
      paragraphs: [
        'We use a small number of trusted service providers, who process data only on our instructions and under contract. Where any of them process data outside the UK, we rely on the safeguards UK law requires, such as adequacy regulations or the International Data Transfer Agreement.',
      ],
    },
    {
      id: 'retention',
      heading: 'How long we keep it',
      paragraphs: [
        'We keep personal data only as long as we need it, then delete or anonymise it.',
        'Invoices are financial records. We keep each invoice for 6 years from the end of the accounting period (our financial year) it belongs to, as HMRC requires for VAT records, and then delete it. If you ask us to delete your data, we keep the invoices we issued you until then, with the names, billing address, PO reference and VAT number they show. Everything else about you is deleted or anonymised.',
        'Artwork files are deleted with the booking they came with, unless a later booking made with Book again still uses them: then they stay with that booking, and go when it does.',
      ],
    },
    {
      id: 'cookies',
      heading: 'Cookies and local storage',
      paragraphs: [
        'We do not use advertising or tracking cookies. Our page-view statistics are collected without cookies.',
        'While you book, your browser keeps your booking details in its own storage so they survive the move to the payment page; they are removed once the payment is complete. Our staff area uses strictly necessary cookies only: one for the sign-in, and one that remembers a browser that signed in before.',
        'When many requests arrive at once, our forms may ask your browser for a short automatic check (a proof-of-work puzzle, ALTCHA) before they send. It runs on our own site: it sets no cookie, stores nothing about you and calls no third party.',
      ],
    },
    {
      id: 'your-rights',
      heading: 'Your rights under UK GDPR',
      paragraphs: ['You have the right to:'],
      points: [
        'ask for a copy of the personal data we hold about you;',
        'have inaccurate data corrected;',
        'have your data deleted, unless we must keep it by law;',
        'restrict or object to how we use it;',
        'receive your data in a portable format;',
        'withdraw your consent at any time, where we rely on it.',
      ],
      closing: `We answer every privacy request within ${PRIVACY_REQUEST_DAYS} days. If you are unhappy with how we have handled your data, you can complain to the Information Commissioner’s Office (ICO) at ico.org.uk or on 0303 123 1113.`,
    },
    {
      id: 'security',
      heading: 'Keeping your data safe',
      paragraphs: [
        'Our website is served over an encrypted connection, and only our staff can see bookings and enquiries, behind a sign-in.',
      ],
    },
    {
      id: 'changes',
      heading: 'Changes to this policy',
      paragraphs: [
        'If we change how we use personal data, we will update this page and the date at the top of it.',
      ],
    },
    {
      id: 'contact',
      heading: 'Contact us',
      paragraphs: [
        `To make a privacy request or ask a question, e-mail ${BUSINESS.email} or call ${BUSINESS.phone} (${BUSINESS.supportHours.text}).`,
      ],
    },
  ],
});
