import { useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $checking, CHECKING_LABEL } from '../shared/challenge.ts';
import { useEarlyInput } from '../shared/early-input.ts';
import { api, ApiError } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { FormField, INPUT_CLASS, fieldId, messagesByField } from '../shared/FormField.tsx';
import { showToast } from '../shared/toast-store.ts';
import { sendEvent } from '../../client/analytics.ts';
import { Toaster } from '../shared/Toaster.tsx';
import {
  CONTACT_FORM_DEFAULTS,
  HONEYPOT_FIELD,
  INQUIRY_TYPES,
  MESSAGE_MAX_LENGTH,
  contactFormSchema,
} from '../../domain/contact-schema.ts';

// The enquiry form of /contact (public-site.md §5 "Contact form", §8 toasts). The schema is the
// server's own (domain/contact-schema.ts); the server's field messages land beside the fields too.

const FORM = 'contact';
export const SENT_TOAST = { title: 'Message Sent Successfully!', description: "We'll get back to you within 24 hours." };
export const FAILED_TITLE = 'Failed to Send Message';
export const FAILED_FALLBACK = 'There was an error sending your message.';

type Values = { -readonly [K in keyof typeof CONTACT_FORM_DEFAULTS]: string };
type FieldName = keyof Values;
const FIELD_ORDER: readonly FieldName[] = ['firstName', 'lastName', 'email', 'phone', 'inquiryType', 'message'];

function ContactForm() {
  const [values, setValues] = useState<Values>({ ...CONTACT_FORM_DEFAULTS });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [isSending, setIsSending] = useState(false);
  const isChecking = useStore($checking);
  const honeypot = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useEarlyInput(form, (typed) => {
    const early = Object.fromEntries(FIELD_ORDER.filter((name) => name in typed).map((name) => [name, typed[name]]));
    setValues((current) => ({ ...current, ...early }));
  });

  function change(name: FieldName) {
    return (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [name]: value }));
      // An error goes as soon as its field is fixed; new ones wait for the next submit.
      if (errors[name]) {
        const parsed = contactFormSchema.safeParse({ ...values, [name]: value });
        const still = parsed.success ? undefined : messagesByField(parsed.error.issues)[name];
        setErrors((current) => ({ ...current, [name]: still }));
      }
    };
  }

  function showErrors(found: Partial<Record<FieldName, string>>) {
    setErrors(found);
    const first = FIELD_ORDER.find((name) => found[name]);
    if (first) document.getElementById(fieldId(FORM, first))?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSending) return;
    const parsed = contactFormSchema.safeParse(values);
    if (!parsed.success) return showErrors(messagesByField(parsed.error.issues));

    setErrors({});
    setIsSending(true);
    try {
      await api('/api/contacts', { body: { ...parsed.data, [HONEYPOT_FIELD]: honeypot.current?.value ?? '' } });
      showToast({ ...SENT_TOAST, variant: 'success' });
      sendEvent('enquiry_sent');
      setValues({ ...CONTACT_FORM_DEFAULTS });
      form.current?.reset();
    } catch (failure) {
      const message = failure instanceof ApiError && failure.message ? failure.message : FAILED_FALLBACK;
      showToast({ title: FAILED_TITLE, description: message, variant: 'destructive' });
      if (failure instanceof ApiError) {
        const known = Object.fromEntries(
          Object.entries(failure.fields).filter(([key]) => (FIELD_ORDER as readonly string[]).includes(key)),
        );
        if (Object.keys(known).length) showErrors(known);
      }
    } finally {
      setIsSending(false);
    }
  }

  return (
    <>
      <form ref={form} noValidate onSubmit={onSubmit} aria-labelledby="contact-form-title" className="card p-6 sm:p-8">
        <h3 id="contact-form-title" className="text-xl">
          Send us a message
        </h3>
        <p className="mt-1 text-concrete-600">
          Fields marked <span aria-hidden="true">*</span>
          <span className="sr-only">required</span> are required.
        </p>

        <div className="mt-6 grid gap-5 sm:grid-cols-2">
          <FormField form={FORM} name="firstName" label={<Required>First name</Required>} error={errors.firstName}>
            {(control) => <input {...control} className={INPUT_CLASS} autoComplete="given-name" value={values.firstName} onChange={change('firstName')} />}
          </FormField>
          <FormField form={FORM} name="lastName" label={<Required>Last name</Required>} error={errors.lastName}>
            {(control) => <input {...control} className={INPUT_CLASS} autoComplete="family-name" value={values.lastName} onChange={change('lastName')} />}
          </FormField>
          <FormField form={FORM} name="email" label={<Required>Email</Required>} error={errors.email}>
            {(control) => (
              <input {...control} type="email" inputMode="email" className={INPUT_CLASS} autoComplete="email" value={values.email} onChange={change('email')} />
            )}
          </FormField>
          <FormField form={FORM} name="phone" label="Phone (optional)" error={errors.phone}>
            {(control) => <input {...control} type="tel" className={INPUT_CLASS} autoComplete="tel" value={values.phone} onChange={change('phone')} />}
          </FormField>
          <FormField form={FORM} name="inquiryType" label={<Required>Inquiry type</Required>} error={errors.inquiryType} className="sm:col-span-2">
            {(control) => (
              <select {...control} className={INPUT_CLASS} value={values.inquiryType} onChange={change('inquiryType')}>
                <option value="">Select an inquiry type</option>
                {INQUIRY_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField
            form={FORM}
            name="message"
            label={<Required>Message</Required>}
            hint="Where, when and what you would like to promote. At least 10 characters."
            error={errors.message}
            className="sm:col-span-2"
          >
            {(control) => (
              <textarea {...control} rows={6} maxLength={MESSAGE_MAX_LENGTH} className={INPUT_CLASS} value={values.message} onChange={change('message')} />
            )}
          </FormField>
        </div>

        {/* The honeypot: off screen, out of the tab order and hidden from screen readers, so only a
            form-filling script ever types into it. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label htmlFor={fieldId(FORM, HONEYPOT_FIELD)}>Leave this field empty</label>
          <input ref={honeypot} id={fieldId(FORM, HONEYPOT_FIELD)} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>

        <button type="submit" className="btn-primary mt-6 w-full disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto" disabled={isSending}>
          {isSending ? (isChecking ? CHECKING_LABEL : 'Sending...') : 'Send Message'}
        </button>
      </form>
      <Toaster />
    </>
  );
}

function Required({ children }: { children: string }) {
  return (
    <>
      {children}
      <span aria-hidden="true" className="text-danger-600">
        {' '}*
      </span>
    </>
  );
}

export default withErrorBoundary(ContactForm);
