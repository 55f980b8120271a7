import * as z from '../domain/zod.ts';
import { WORKING_HOURS } from './working-hours.ts';

// Business details used by the header, footer, contact page, e-mails and LocalBusiness
// structured data. Facts from public-site.md sections 1 and 9.

const DAYS_OF_WEEK = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export const businessSchema = z.object({
  name: z.string().min(1),
  legalName: z.string().min(1),
  tagline: z.string().min(1),
  phone: z.string().min(1),
  phoneE164: z.string().regex(/^\+44\d{9,10}$/),
  phoneHref: z.string().startsWith('tel:+44'),
  email: z.email(),
  emailHref: z.string().startsWith('mailto:'),
  serviceArea: z.string().min(1),
  baseCity: z.string().min(1),
  address: z.object({
    locality: z.string().min(1),
    region: z.string().min(1),
    country: z.string().length(2),
  }),
  supportHours: z.object({
    text: z.string().min(1),
    days: z.array(z.enum(DAYS_OF_WEEK)).min(1),
    opens: z.string().regex(CLOCK_TIME),
    closes: z.string().regex(CLOCK_TIME),
  }),
  responseTime: z.string().min(1),
  workingHours: z.object({ day: z.string().min(1), night: z.string().min(1) }),
  copyrightYear: z.number().int(),
  services: z.array(z.string().min(1)).min(1),
});

export type Business = z.infer<typeof businessSchema>;

export const BUSINESS = businessSchema.parse({
  name: 'Clean Patch',
  legalName: 'Clean Patch Reverse Graffiti',
  tagline: 'Eco-friendly reverse graffiti advertising across North England',
  phone: '0161 496 0123',
  phoneE164: '+441614960123',
  phoneHref: 'tel:+441614960123',
  email: 'hello@cleanpatch.example',
  emailHref: 'mailto:hello@cleanpatch.example',
  serviceArea: 'North England',
  baseCity: 'Manchester',
  address: { locality: 'Manchester', region: 'Greater Manchester', country: 'GB' },
  supportHours: {
    text: 'Monday to Friday, 9am to 5pm',
    days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
    opens: '09:00',
    closes: '17:00',
  },
  responseTime: '24 hours',
  workingHours: WORKING_HOURS,
  // Section 9, "Other": the copyright text says 2024.
  copyrightYear: 2024,
  services: ['Reverse Graffiti', 'Brand Campaigns', 'Event Marketing', 'Custom Stencils'],
});
