import * as z from '../domain/zod.ts';
import { BUSINESS } from './business.ts';
import { legalPageSchema } from './legal.ts';

// The text of /privacy (public-site.md section 2): the retention periods and the 30-day answer
// are the spec's; the rest is what UK data protection law asks a business to publish.

/** The privacy policy's own date: it changed when invoices got their retention period. */
const PRIVACY_LAST_UPDATED = '2026-11-28';

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
