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
import { legalPageSchema } from './legal.ts';

// The text of /terms (public-site.md section 2): no refunds and free weather rescheduling are the
// spec's; the rest are the ordinary terms of a UK business-to-business service.

const LAST_UPDATED = '2026-11-22';
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
