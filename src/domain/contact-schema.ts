import * as z from './zod.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PHONE_MAX_LENGTH } from './booking-schema.ts';
import { multiLine, oneLine, requiredOneLine, tooLong } from './text-fields.ts';

// One contract for the contact form and POST /api/contacts (conventions.md, habit 1). Field
// messages are the texts of public-site.md section 5, "Contact form".

export const CONTACT_MESSAGES = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  emailInvalid: 'Valid email is required',
  inquiryTypeRequired: 'Please select an inquiry type',
  messageTooShort: 'Message must be at least 10 characters',
} as const;

/** public-site.md §5: the enquiry form's inquiry types, in the spec's order. */
export const INQUIRY_TYPES = [
  'General Inquiry',
  'July Special Booking',
  'Custom Quote',
  'Bulk/Enterprise',
  'Partnership',
] as const;

export type InquiryType = (typeof INQUIRY_TYPES)[number];

export const MESSAGE_MIN_LENGTH = 10;
/** The spec sets no upper bound; this keeps a row and an e-mail readable. */
export const MESSAGE_MAX_LENGTH = 5000;
/** The hidden field people never see; anything in it means a form-filling script. */
export const HONEYPOT_FIELD = 'website';

export const contactFormSchema = z.object({
  firstName: requiredOneLine(CONTACT_MESSAGES.firstNameRequired, 'First name', NAME_MAX_LENGTH),
  lastName: requiredOneLine(CONTACT_MESSAGES.lastNameRequired, 'Last name', NAME_MAX_LENGTH),
  email: oneLine(CONTACT_MESSAGES.emailInvalid)
    .max(EMAIL_MAX_LENGTH, { error: CONTACT_MESSAGES.emailInvalid, abort: true })
    .regex(z.regexes.email, { error: CONTACT_MESSAGES.emailInvalid }),
  phone: oneLine('Phone number must be text')
    .max(PHONE_MAX_LENGTH, { error: tooLong('Phone number', PHONE_MAX_LENGTH) })
    .optional(),
  inquiryType: z.enum(INQUIRY_TYPES, { error: CONTACT_MESSAGES.inquiryTypeRequired }),
  message: multiLine(CONTACT_MESSAGES.messageTooShort)
    .min(MESSAGE_MIN_LENGTH, { error: CONTACT_MESSAGES.messageTooShort })
    .max(MESSAGE_MAX_LENGTH, { error: tooLong('Message', MESSAGE_MAX_LENGTH) }),
});

/** What the server parses: the form's fields plus the honeypot, which a person leaves empty. */
export const contactPayloadSchema = contactFormSchema.extend({
  [HONEYPOT_FIELD]: z.string().max(1000).optional(),
});

export type ContactFormValues = z.input<typeof contactFormSchema>;
export type ContactPayload = z.infer<typeof contactPayloadSchema>;

export const CONTACT_FORM_DEFAULTS = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  inquiryType: '',
  message: '',
} as const;
