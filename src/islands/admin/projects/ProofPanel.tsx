import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import {
  PROOF_NOTE_MAX_LENGTH,
  PROOF_STATUS_LABEL,
  formatProofTime,
  isPdfProof,
  proofImageUrl,
  type ProofView,
  type StencilChangeView,
} from '../../../domain/proofs.ts';
import { adminApi as api } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';

// The stencil proof on a project card (api.md "Stencil proof sign-off"): where sign-off stands,
// the upload of the next version, every version with its decision, and the waiver of a paid
// change's £100 (kept with who and why).

const DAY_MS = 86_400_000;

/** 'for 3 days', 'for 5 hours', 'for a few minutes'. */
export function waitingFor(sinceIso: string, now: Date = new Date()): string {
  const ms = Math.max(0, now.getTime() - new Date(sinceIso).getTime());
  if (ms >= DAY_MS) return `for ${Math.floor(ms / DAY_MS)} day${ms >= 2 * DAY_MS ? 's' : ''}`;
  const hours = Math.floor(ms / 3_600_000);
  return hours >= 1 ? `for ${hours} hour${hours === 1 ? '' : 's'}` : 'for a few minutes';
}

function stateLine(latest: ProofView | undefined): string {
  if (!latest) return 'No proof sent yet.';
  switch (latest.status) {
    case 'awaiting':
      return `Version ${latest.version} awaiting sign-off ${waitingFor(latest.createdAt)}.`;
    case 'approved':
      return `Version ${latest.version} approved on ${formatProofTime(latest.approvedAt ?? latest.decidedAt ?? latest.createdAt)}.`;
    case 'changes_requested':
      return `Changes requested on version ${latest.version} (${formatProofTime(latest.decidedAt ?? latest.createdAt)}): upload the next version.`;
    default:
      return `Version ${latest.version}: ${PROOF_STATUS_LABEL[latest.status]}.`;
  }
}

export function ProofPanel({ bookingId, onChanged }: { bookingId: number; onChanged: () => void }) {
  const [proofs, setProofs] = useState<ProofView[] | null>(null);
  const headingId = useId();
  const reload = useCallback(() => {
    api<ProofView[]>(`/api/bookings/${bookingId}/proofs`, { cache: 'no-store' }).then(setProofs, () => setProofs([]));
  }, [bookingId]);
  useEffect(reload, [reload]);
  const changed = () => {
    reload();
    onChanged();
  };

  const latest = proofs?.[0];
  const unpaid = proofs?.flatMap((proof) => proof.changes.filter((change) => change.status === 'awaiting_payment').map((change) => ({ change, proof }))) ?? [];
  return (
    <section aria-labelledby={headingId} className="mt-4 rounded-lg border border-concrete-200 p-3" data-testid={`proof-panel-${bookingId}`}>
      <h4 id={headingId} className="font-semibold">
        Stencil proof
      </h4>
      <p className="mt-1 text-sm" data-testid="proof-state">
        {proofs === null ? 'Loading...' : stateLine(latest)}
      </p>
      {latest && <LatestPicture proof={latest} />}
      {latest?.status === 'changes_requested' && latest.comment && (
        <blockquote className="mt-2 border-l-4 border-concrete-300 pl-3 text-sm whitespace-pre-line">{latest.comment}</blockquote>
      )}
      {unpaid.map(({ change, proof }) => (
        <Waiver key={change.id} change={change} version={proof.version} onWaived={changed} />
      ))}
      <UploadForm bookingId={bookingId} onUploaded={changed} />
      {proofs && proofs.length > 0 && (
        <ul className="mt-3 divide-y divide-concrete-100 text-sm">
          {proofs.map((proof) => (
            <li key={proof.id} className="py-2">
              <a href={proof.fileUrl} target="_blank" rel="noopener" className="font-semibold underline">
                Version {proof.version}
              </a>{' '}
              · {PROOF_STATUS_LABEL[proof.status]} · sent {formatProofTime(proof.createdAt)}
              {proof.decidedAt && ` · decided ${formatProofTime(proof.decidedAt)}`}
              {proof.note && <span className="block text-concrete-700">Note: {proof.note}</span>}
              {proof.comment && <span className="block whitespace-pre-line">Customer: “{proof.comment}”</span>}
              {proof.changes.map((change) => (
                <span key={change.id} className="block text-concrete-700">
                  Change after approval (£{change.amount}):{' '}
                  {change.status === 'paid' && `paid ${formatProofTime(change.paidAt!)}`}
                  {change.status === 'waived' && `waived by ${change.waivedBy} (${change.waivedReason})`}
                  {change.status === 'awaiting_payment' && 'awaiting payment'}
                </span>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The latest version as the customer sees it: the image, or a PDF's first page beside its link. */
function LatestPicture({ proof }: { proof: ProofView }) {
  const image = proofImageUrl(proof);
  if (!image) return null;
  const isPdf = isPdfProof(proof);
  return (
    <div className="mt-2 flex flex-wrap items-start gap-3" data-testid="proof-picture">
      <a href={isPdf ? image : proof.fileUrl} target="_blank" rel="noopener" className="shrink-0">
        <img
          src={image}
          alt={`Version ${proof.version}${isPdf ? ' (first page of the PDF)' : ''}`}
          loading="lazy"
          className="h-28 w-44 rounded border border-concrete-200 bg-white object-contain"
        />
      </a>
      {isPdf && (
        <a href={proof.fileUrl} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center text-sm font-semibold underline">
          Open the full PDF
        </a>
      )}
    </div>
  );
}

function UploadForm({ bookingId, onUploaded }: { bookingId: number; onUploaded: () => void }) {
  const [busy, setBusy] = useState(false);
  const fileId = useId();
  const noteId = useId();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const file = data.get('file');
    if (!(file instanceof File) || file.size === 0) {
      showToast({ title: 'No file', description: 'Please choose the proof file (PNG, JPG, SVG or PDF).', variant: 'destructive' });
      return;
    }
    setBusy(true);
    try {
      const proof = await api<{ version: number }>(`/api/admin/bookings/${bookingId}/proofs`, { body: data });
      showToast({ title: 'Proof sent', description: `Version ${proof.version} was e-mailed to the customer.` });
      form.reset();
      onUploaded();
    } catch (error) {
      showToast({ title: 'Proof not sent', description: error instanceof Error ? error.message : String(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form data-change className="mt-3 grid gap-2" onSubmit={submit} noValidate>
      <label htmlFor={fileId} className="text-sm font-semibold">
        New proof (PNG, JPG, SVG or PDF)
      </label>
      <input id={fileId} name="file" type="file" accept=".png,.jpg,.jpeg,.svg,.pdf,image/png,image/jpeg,image/svg+xml,application/pdf" className="block min-h-11 w-full text-sm file:mr-3 file:min-h-11 file:rounded-full file:border file:border-concrete-300 file:bg-white file:px-4 file:font-semibold" />
      <label htmlFor={noteId} className="text-sm font-semibold">
        Note for the customer (optional)
      </label>
      <textarea id={noteId} name="note" rows={2} maxLength={PROOF_NOTE_MAX_LENGTH} className="rounded border border-concrete-300 p-2 text-sm" />
      <button type="submit" className="btn-primary justify-self-start" disabled={busy}>
        {busy ? 'Sending...' : 'Send proof to customer'}
      </button>
    </form>
  );
}

function Waiver({ change, version, onWaived }: { change: StencilChangeView; version: number; onWaived: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const reasonId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api(`/api/admin/stencil-changes/${change.id}/waive`, { body: { reason } });
      showToast({ title: 'Charge waived', description: 'The change request is now with the studio.' });
      onWaived();
    } catch (error) {
      showToast({ title: 'Not waived', description: error instanceof Error ? error.message : String(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form data-change className="mt-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm" onSubmit={submit} noValidate data-testid="stencil-change-unpaid">
      <p>
        Change after approval of version {version}, £{change.amount} unpaid (asked {formatProofTime(change.createdAt)}): “{change.comment}”
      </p>
      <label htmlFor={reasonId} className="mt-2 block font-semibold">
        Reason for waiving the £{change.amount}
      </label>
      <input id={reasonId} value={reason} onChange={(event) => setReason(event.target.value)} maxLength={500} className="mt-1 w-full rounded border border-concrete-300 p-2" />
      <button type="submit" className="btn-secondary mt-2" disabled={busy || !reason.trim()}>
        Waive £{change.amount}
      </button>
    </form>
  );
}
