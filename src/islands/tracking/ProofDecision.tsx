import { useId, useState, type FormEvent } from 'react';
import type { Stripe } from '@stripe/stripe-js';
import { PROOF_COMMENT_MAX_LENGTH, PROOF_COMMENT_MESSAGE, STENCIL_CHANGE_NOTICE, formatProofTime, type ProofView } from '../../domain/proofs.ts';
import { STENCIL_CHANGE_PENCE } from '../../domain/pricing.ts';
import { api, ApiError } from '../shared/api.ts';
import { ConfirmDialog } from '../shared/ConfirmDialog.tsx';
import { showToast } from '../shared/toast-store.ts';

// The customer's answers to a stencil proof (api.md "Stencil proof sign-off"): approve or ask for
// changes while a version awaits a decision, and after an approval the £100 change, paid first.

type StripeFormModule = typeof import('../checkout/StripePaymentForm.tsx');
type Payment = { clientSecret: string; stripe: Stripe; form: StripeFormModule };

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

export function Decision({ proof, onDecided }: { proof: ProofView; onDecided: () => void }) {
  const [mode, setMode] = useState<'choose' | 'confirm' | 'changes'>('choose');
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
      {mode !== 'changes' ? (
        <div className="mt-4 flex flex-col gap-3 sm:flex-row">
          <button type="button" className="btn-primary" disabled={busy} onClick={() => setMode('confirm')}>
            Approve version {proof.version}
          </button>
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => setMode('changes')}>
            Request changes
          </button>
          {/* Asked once, naming the one thing an approval costs later (public-site.md "Limits"). */}
          <ConfirmDialog
            open={mode === 'confirm'}
            title={`Approve version ${proof.version}?`}
            text={`We will make your stencil from this version. Please note: ${STENCIL_CHANGE_NOTICE}.`}
            confirmLabel={`Yes, approve version ${proof.version}`}
            onCancel={() => setMode('choose')}
            onConfirm={() => {
              setMode('choose');
              void decide('approve');
            }}
          />
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

export function ChangeAfterApproval({ bookingId, proof, publishableKey, onChanged }: { bookingId: number; proof: ProofView; publishableKey: string | null; onChanged: () => void }) {
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
