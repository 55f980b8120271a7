import { useCallback, useEffect, useState } from 'react';
import { PROOF_STATUS_LABEL, formatProofTime, type ProofView } from '../../domain/proofs.ts';
import { api } from '../shared/api.ts';
import { ChangeAfterApproval, Decision } from './ProofDecision.tsx';

// The stencil proof on the tracking page (api.md "Stencil proof sign-off"): the latest version
// large, Approve / Request changes while it awaits a decision, the paid change after approval,
// and every earlier version. Readable only with the grant the tracking call just gave.

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
