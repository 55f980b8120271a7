import { useEffect, useState, type FormEvent } from 'react';
import { formatLongDate } from '../../domain/format.ts';
import { formatPounds, penceFromPounds } from '../../domain/pricing.ts';
import { api, ApiError } from '../shared/api.ts';
import { FormField, INPUT_CLASS } from '../shared/FormField.tsx';

// What a business customer keeps (api.md "Documents for business customers"): the invoices of
// this booking, the campaign report once the project is complete, the billing details later
// invoices carry, and "Book again" on a completed booking.

interface InvoiceItem {
  number: string;
  issuedAt: string;
  total: number;
  vat?: number;
  pdfUrl: string;
}

interface Billing {
  billingAddress: string | null;
  poReference: string | null;
  customerVatNumber: string | null;
}

const FORM = 'billing';
const COMPLETE_STEP = 5;

export function DocumentsPanel({ bookingId, currentStep }: { bookingId: number; currentStep: number }) {
  // null while loading; a failed answer is its own state, so a paid customer is never told the
  // invoice has yet to appear when it only failed to load.
  const [invoices, setInvoices] = useState<InvoiceItem[] | 'failed' | null>(null);
  const [attempt, setAttempt] = useState(0);
  const isComplete = currentStep >= COMPLETE_STEP;

  useEffect(() => {
    let isCurrent = true;
    setInvoices(null);
    api<InvoiceItem[]>(`/api/bookings/${bookingId}/invoices`, { cache: 'no-store' })
      .then((list) => isCurrent && setInvoices(list))
      .catch(() => isCurrent && setInvoices('failed'));
    return () => {
      isCurrent = false;
    };
  }, [bookingId, attempt]);

  return (
    <section aria-labelledby="documents-heading" className="card p-6 sm:p-8" data-testid="documents">
      <h3 id="documents-heading" className="text-2xl">
        Invoices and reports
      </h3>
      {invoices === null && (
        <p role="status" className="mt-3 text-concrete-600">
          Loading invoices...
        </p>
      )}
      {invoices === 'failed' && (
        <div role="alert" className="mt-3 text-danger-600">
          <p>Could not load your invoices.</p>
          <button type="button" className="btn-secondary mt-3" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      )}
      {Array.isArray(invoices) && invoices.length === 0 && <p className="mt-3 text-concrete-700">Your invoice appears here once your payment has been received.</p>}
      {Array.isArray(invoices) && invoices.length > 0 && (
        <ul className="mt-4 divide-y divide-concrete-100 border-y border-concrete-100">
          {invoices.map((invoice) => (
            <li key={invoice.number} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-semibold">Invoice {invoice.number}</p>
                <p className="text-sm text-concrete-700">
                  {formatLongDate(invoice.issuedAt)} · {formatPounds(penceFromPounds(invoice.total))}
                  {invoice.vat !== undefined && ` including ${formatPounds(penceFromPounds(invoice.vat))} VAT`}
                </p>
              </div>
              <a className="btn-secondary" href={invoice.pdfUrl} download>
                <span>
                  Download<span className="sr-only"> invoice {invoice.number}</span> PDF
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}

      {isComplete && (
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <a className="btn-primary" href={`/api/bookings/${bookingId}/report`} download data-testid="report-link">
            <span>
              Download <span className="sr-only">campaign </span>report (PDF)
            </span>
          </a>
          <a className="btn-accent" href={`/booking?rebook=${bookingId}`} data-testid="book-again">
            Book again
          </a>
        </div>
      )}

      <BillingForm bookingId={bookingId} />
    </section>
  );
}

function BillingForm({ bookingId }: { bookingId: number }) {
  const [values, setValues] = useState({ billingAddress: '', poReference: '', customerVatNumber: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  // The fields open once the stored details are in: saving the empty form before (or instead of)
  // them would wipe details the customer gave earlier, and a late answer would overwrite typing.
  const [loaded, setLoaded] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let isCurrent = true;
    setLoaded('loading');
    api<Billing>(`/api/bookings/${bookingId}/billing`, { cache: 'no-store' })
      .then((billing) => {
        if (!isCurrent) return;
        setValues({ billingAddress: billing.billingAddress ?? '', poReference: billing.poReference ?? '', customerVatNumber: billing.customerVatNumber ?? '' });
        setLoaded('ready');
      })
      .catch(() => isCurrent && setLoaded('failed'));
    return () => {
      isCurrent = false;
    };
  }, [bookingId, attempt]);
  const locked = loaded !== 'ready';

  const change = (name: keyof typeof values) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [name]: event.target.value }));
    setStatus('idle');
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    setStatus('saving');
    setErrors({});
    try {
      const saved = await api<Billing>(`/api/bookings/${bookingId}/billing`, { method: 'PATCH', body: values });
      setValues({ billingAddress: saved.billingAddress ?? '', poReference: saved.poReference ?? '', customerVatNumber: saved.customerVatNumber ?? '' });
      setStatus('saved');
    } catch (error) {
      setErrors(error instanceof ApiError ? error.fields : {});
      setStatus('failed');
    }
  }

  return (
    <form className="mt-8 max-w-xl space-y-5 border-t border-concrete-100 pt-6" noValidate onSubmit={save} aria-labelledby="billing-heading">
      <div>
        <h4 id="billing-heading" className="text-lg">
          Billing details
        </h4>
        <p className="mt-1 text-concrete-700">For your accounts team: invoices issued from now on carry these. Invoices already issued stay as they are.</p>
      </div>
      {loaded === 'failed' && (
        <div role="alert" className="text-danger-600">
          <p>Could not load your billing details.</p>
          <button type="button" className="btn-secondary mt-3" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      )}
      <FormField form={FORM} name="billingAddress" label="Billing address" error={errors.billingAddress}>
        {(control) => <textarea {...control} rows={3} className={INPUT_CLASS} value={values.billingAddress} disabled={locked} onChange={change('billingAddress')} autoComplete="street-address" />}
      </FormField>
      <FormField form={FORM} name="poReference" label="Purchase order (PO) reference" hint="Optional" error={errors.poReference}>
        {(control) => <input {...control} className={INPUT_CLASS} value={values.poReference} disabled={locked} onChange={change('poReference')} />}
      </FormField>
      <FormField form={FORM} name="customerVatNumber" label="Your VAT number" hint="Optional, for example GB123456789" error={errors.customerVatNumber}>
        {(control) => <input {...control} className={INPUT_CLASS} value={values.customerVatNumber} disabled={locked} onChange={change('customerVatNumber')} />}
      </FormField>
      <div className="flex flex-wrap items-center gap-4">
        <button type="submit" className="btn-primary" disabled={locked || status === 'saving'}>
          {status === 'saving' ? 'Saving...' : 'Save billing details'}
        </button>
        <p role="status" className="text-concrete-700">
          {status === 'saved' && 'Saved. Your next invoices will carry these details.'}
          {status === 'failed' && !Object.keys(errors).length && 'We could not save your details. Please try again.'}
        </p>
      </div>
    </form>
  );
}
