import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { Stripe } from '@stripe/stripe-js';
import {
  PROOF_COMMENT_MAX_LENGTH,
  PROOF_COMMENT_MESSAGE,
  PROOF_STATUS_LABEL,
  STENCIL_CHANGE_NOTICE,
  formatProofTime,
  type ProofView,
} from '../../domain/proofs.ts';
import { STENCIL_CHANGE_PENCE } from '../../domain/pricing.ts';
import { api, ApiError } from '../shared/api.ts';
import { showToast } from '../shared/toast-store.ts';

// The stencil proof on the tracking page (api.md "Stencil proof sign-off"): the latest version
// large, Approve / Request changes while it awaits a decision, the paid change after approval,
// and every earlier version. Readable only with the grant the tracking call just gave.

type StripeFormModule = typeof import('../checkout/StripePaymentForm.tsx');
type Payment = { clientSecret: string; stripe: Stripe; form: StripeFormModule };

const fetchProofs = (bookingId: number) => api<ProofView[]>(`/api/bookings/${bookingId}/proofs`, { cache: 'no-store' });

export function ProofPanel({ bookingId, publishableKey }: { bookingId: number; publishableKey: string | null }) {
  const [proofs, setProofs] = useState<ProofView[] | null>(null);
  const reload = useCallback(() => {
    fetchProofs(bookingId).then(setProofs, () => setProofs([]));
  }, [bookingId]);
  useEffect(reload, [reload]);

  if (!proofs || proofs.length === 0) return null;
  const [latest, ...earlier] = proofs as [ProofView, ...ProofView[]];
  return (
    <section aria-labelledby="proof-heading" className="card p-6 sm:p-8" data-testid="customer-proof">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="proof-heading" className="text-2xl">
          Your stencil proof
        </h3>
        <StatusBadge proof={latest} />
      </div>
      <p className="mt-1 text-concrete-700">
        Version {latest.version}, sent {formatProofTime(latest.createdAt)}
      </p>
      {latest.note && <p className="mt-3 rounded-lg bg-concrete-50 p-3 whitespace-pre-line">{latest.note}</p>}
      <ProofPreview proof={latest} />
      {latest.status === 'awaiting' && <Decision proof={latest} onDecided={reload} />}
      {latest.status === 'approved' && <ChangeAfterApproval bookingId={bookingId} proof={latest} publishableKey={publishableKey} onChanged={reload} />}
      {latest.status === 'changes_requested' && (
        <p className="mt-5 rounded-lg border border-concrete-200 p-4" role="status">
          You asked for changes on {formatProofTime(latest.decidedAt ?? latest.createdAt)}. We are making a new version and will e-mail you when it is ready.
        </p>
      )}
      {earlier.length > 0 && <History proofs={earlier} />}
    </section>
  );
}

function StatusBadge({ proof }: { proof: ProofView }) {
  const tone = proof.status === 'approved' ? 'bg-accent-100 text-accent-800' : proof.status === 'awaiting' ? 'bg-ink text-paper' : 'bg-concrete-100 text-concrete-800';
  return <span className={`inline-flex rounded-full px-2.5 py-0.5 text-sm font-semibold ${tone}`}>{PROOF_STATUS_LABEL[proof.status]}</span>;
}

/**
 * Images inline. A PDF in the browser's own viewer where it has one (desktop browsers, and
 * iPhone Safari, which shows the first page), else a plain link: Android's Chrome has no inline
 * PDF viewer and opens the file in the phone's own app instead. Rendering pages ourselves would
 * need a PDF library several times the size of this whole island.
 */
function ProofPreview({ proof }: { proof: ProofView }) {
  const label = `Stencil proof, version ${proof.version}`;
  if (proof.mimeType !== 'application/pdf') {
    return (
      <a href={proof.fileUrl} target="_blank" rel="noopener" className="mt-4 block">
        <img src={proof.fileUrl} alt={label} className="max-h-[70vh] w-full rounded-lg border border-concrete-200 bg-white object-contain" />
      </a>
    );
  }
  const hasViewer = typeof navigator !== 'undefined' && navigator.pdfViewerEnabled === true;
  return (
    <div className="mt-4">
      {hasViewer && <iframe src={proof.fileUrl} title={label} className="h-[70vh] w-full rounded-lg border border-concrete-200" />}
      <p className="mt-3 flex flex-wrap gap-3">
        <a className="btn-secondary" href={proof.fileUrl} target="_blank" rel="noopener">
          Open the proof (PDF)
        </a>
        <a className="btn-secondary" href={`${proof.fileUrl}?download=1`}>
          Download
        </a>
      </p>
    </div>
  );
}

function ChangeNotice() {
  return (
    <p className="mt-4 rounded-lg border-l-4 border-accent-600 bg-accent-50 p-3 text-concrete-800">
      Please check it carefully: {STENCIL_CHANGE_NOTICE}, because the stencil has to be remanufactured.
    </p>
  );
}

function CommentField({ id, value, onChange, label }: { id: string; value: string; onChange: (value: string) => void; label: string }) {
  return (
    <div>
      <label htmlFor={id} className="block font-semibold">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        required
        maxLength={PROOF_COMMENT_MAX_LENGTH}
        rows={4}
        aria-describedby={`${id}-count`}
        className="mt-1 w-full rounded-lg border border-concrete-300 p-3"
      />
      <p id={`${id}-count`} className="mt-1 text-sm text-concrete-600">
        {value.length} / {PROOF_COMMENT_MAX_LENGTH} characters
      </p>
    </div>
  );
}

function Decision({ proof, onDecided }: { proof: ProofView; onDecided: () => void }) {
  const [mode, setMode] = useState<'choose' | 'changes'>('choose');
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const fieldId = useId();

  const decide = async (path: string, body?: unknown) => {
    setBusy(true);
    try {
      await api(`/api/proofs/${proof.id}/${path}`, { body: body ?? {} });
      showToast({ title: path === 'approve' ? 'Proof approved' : 'Changes requested', description: path === 'approve' ? 'Thank you: we will make your stencil now.' : 'We will send you a new version.' });
      onDecided();
    } catch (error) {
      showToast({ title: 'Not saved', description: error instanceof Error ? error.message : String(error), variant: 'destructive' });
      onDecided();
    } finally {
      setBusy(false);
    }
  };

  const sendChanges = (event: FormEvent) => {
    event.preventDefault();
    if (!comment.trim()) {
      showToast({ title: 'Not sent', description: PROOF_COMMENT_MESSAGE, variant: 'destructive' });
      return;
    }
    void decide('request-changes', { comment });
  };

  return (
    <div className="mt-5">
      <ChangeNotice />
      {mode === 'choose' ? (
        <div className="mt-4 flex flex-col gap-3 sm:flex-row">
          <button type="button" className="btn-primary" disabled={busy} onClick={() => void decide('approve')}>
            Approve version {proof.version}
          </button>
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => setMode('changes')}>
            Request changes
          </button>
        </div>
      ) : (
        <form className="mt-4 space-y-3" onSubmit={sendChanges} noValidate>
          <CommentField id={fieldId} value={comment} onChange={setComment} label="What should we change?" />
          <div className="flex flex-col gap-3 sm:flex-row">
            <button type="submit" className="btn-primary" disabled={busy}>
              Send change request
            </button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => setMode('choose')}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

type ChangeState =
  | { kind: 'idle' }
  | { kind: 'asking' }
  | { kind: 'paying'; payment: Payment }
  | { kind: 'paid' }
  | { kind: 'message'; text: string };

function ChangeAfterApproval({ bookingId, proof, publishableKey, onChanged }: { bookingId: number; proof: ProofView; publishableKey: string | null; onChanged: () => void }) {
  const [state, setState] = useState<ChangeState>({ kind: 'idle' });
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const fieldId = useId();
  const open = proof.changes.find((change) => change.status === 'awaiting_payment');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!comment.trim()) {
      showToast({ title: 'Not sent', description: PROOF_COMMENT_MESSAGE, variant: 'destructive' });
      return;
    }
    setBusy(true);
    const loadForm = (key: string) => import('../checkout/StripePaymentForm.tsx').then(async (form) => ({ form, stripe: await form.loadStripeOnce(key) }));
    // Stripe.js starts loading with the key the page was built with, while the server answers;
    // the server's own key (its current settings) wins when it gives one.
    const early = publishableKey ? loadForm(publishableKey) : null;
    early?.catch(() => undefined);
    try {
      const answer = await api<{ clientSecret: string; amount: number; publishableKey?: string }>(`/api/bookings/${bookingId}/stencil-change`, { body: { comment } });
      const key = answer.publishableKey ?? publishableKey;
      const loaded = !key ? null : key === publishableKey && early ? await early : await loadForm(key);
      if (!loaded?.stripe) throw new Error('Card payment could not be loaded. Please call us to pay for the change.');
      setState({ kind: 'paying', payment: { clientSecret: answer.clientSecret, stripe: loaded.stripe, form: loaded.form } });
    } catch (error) {
      // 503 without payments: the server kept the request and says the change will be invoiced.
      setState({ kind: 'message', text: error instanceof Error ? error.message : String(error) });
      if (error instanceof ApiError) onChanged();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-5" data-testid="change-after-approval">
      <p className="font-semibold">
        You approved version {proof.version} on {formatProofTime(proof.approvedAt ?? proof.decidedAt ?? proof.createdAt)}.
      </p>
      <ChangeNotice />
      {open && state.kind === 'idle' && (
        <p className="mt-3 text-concrete-700">Your change request of {formatProofTime(open.createdAt)} is waiting for its payment.</p>
      )}
      {state.kind === 'idle' && (
        <button type="button" className="btn-secondary mt-4" onClick={() => setState({ kind: 'asking' })}>
          Ask for a change after approval
        </button>
      )}
      {state.kind === 'asking' && (
        <form className="mt-4 space-y-3" onSubmit={submit} noValidate>
          <CommentField id={fieldId} value={comment} onChange={setComment} label="What should we change?" />
          <div className="flex flex-col gap-3 sm:flex-row">
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? 'Please wait...' : 'Continue to payment (£100)'}
            </button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => setState({ kind: 'idle' })}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {state.kind === 'paying' && (
        <div className="mt-4">
          <state.payment.form.StripePaymentForm
            stripe={state.payment.stripe}
            clientSecret={state.payment.clientSecret}
            amountPence={STENCIL_CHANGE_PENCE}
            onLoadError={(text) => setState({ kind: 'message', text })}
            onPaid={() => {
              setState({ kind: 'paid' });
              onChanged();
            }}
          />
        </div>
      )}
      {state.kind === 'paid' && (
        <p className="mt-4 rounded-lg border border-accent-300 bg-accent-50 p-4" role="status">
          Payment received. Your change request goes to our studio as soon as the payment is confirmed, and we will e-mail you the new version.
        </p>
      )}
      {state.kind === 'message' && (
        <p className="mt-4 rounded-lg border border-concrete-300 bg-concrete-50 p-4" role="status">
          {state.text}
        </p>
      )}
    </div>
  );
}

function History({ proofs }: { proofs: ProofView[] }) {
  return (
    <div className="mt-6 border-t border-concrete-100 pt-4">
      <h4 className="text-lg">Earlier versions</h4>
      <ul className="mt-2 divide-y divide-concrete-100">
        {proofs.map((proof) => (
          <li key={proof.id} className="py-3">
            <p>
              <a href={proof.fileUrl} target="_blank" rel="noopener" className="font-semibold underline">
                Version {proof.version}
              </a>{' '}
              <span className="text-concrete-700">
                · {PROOF_STATUS_LABEL[proof.status]}
                {proof.decidedAt ? ` on ${formatProofTime(proof.decidedAt)}` : ''}
              </span>
            </p>
            {proof.approvedAt && proof.status !== 'approved' && <p className="text-sm text-concrete-700">Approved on {formatProofTime(proof.approvedAt)}, then changed.</p>}
            {proof.comment && <p className="mt-1 text-sm whitespace-pre-line text-concrete-800">“{proof.comment}”</p>}
          </li>
        ))}
      </ul>
    </div>
  );
}
