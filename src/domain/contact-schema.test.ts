import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, contactFormSchema } from './contact-schema.ts';

const valid = {
  firstName: 'Amira',
  lastName: 'Khan',
  email: 'amira@northernroasters.co.uk',
  phone: '',
  inquiryType: 'Custom Quote',
  message: 'Ten patches around the station, please.',
};

describe('contactFormSchema (public-site.md §5 "Contact form")', () => {
  it.each([
    ['a complete enquiry', {}, null],
    ['no phone at all', { phone: undefined }, null],
    ['a missing first name', { firstName: ' ' }, CONTACT_MESSAGES.firstNameRequired],
    ['a missing last name', { lastName: '' }, CONTACT_MESSAGES.lastNameRequired],
    ['an invalid e-mail', { email: 'amira@' }, CONTACT_MESSAGES.emailInvalid],
    ['no inquiry type', { inquiryType: '' }, CONTACT_MESSAGES.inquiryTypeRequired],
    ['an unknown inquiry type', { inquiryType: 'Spam' }, CONTACT_MESSAGES.inquiryTypeRequired],
    ['a 9-character message', { message: '123456789' }, CONTACT_MESSAGES.messageTooShort],
    ['a message padded with spaces', { message: '   short   ' }, CONTACT_MESSAGES.messageTooShort],
  ])('%s', (_, change, message) => {
    const parsed = contactFormSchema.safeParse({ ...valid, ...change });
    expect(parsed.success ? null : parsed.error.issues[0]?.message).toBe(message);
  });
});
