import { useCallback, useEffect, useState, type MouseEvent } from 'react';
import { PROOF_STATUS_LABEL, formatProofTime, isPdfProof, proofImageUrl, type ProofView } from '../../domain/proofs.ts';
import { api } from '../shared/api.ts';
import { ChangeAfterApproval, Decision } from './ProofDecision.tsx';
import { ProofZoom } from './ProofZoom.tsx';

// The stencil proof on the tracking page (api.md "Stencil proof sign-off"): the latest version
// large, Approve / Request changes while it awaits a decision, the paid change after approval,
// and every earlier version. Readable only with the grant the tracking call just gave.

const fetchProofs = (bookingId: number) => api<ProofView[]>(`/api/bookings/${bookingId}/proofs`, { cache: 'no-store' });

/** The booking's proofs, newest first (null while loading), shared by the pointer and the panel. */
export function useProofs(bookingId: number) {
  const [proofs, setProofs] = useState<ProofView[] | null>(null);
  const reload = useCallback(() => {
    fetchProofs(bookingId).then(setProofs, () => setProofs([]));
  }, [bookingId]);
  useEffect(reload, [reload]);
  return { proofs, reload };
}

const PROOF_HEADING_ID = 'proof-heading';

/**
 * At the top of the page while a version awaits the customer's decision: on a phone the proof
 * itself is far below the booking's details and progress. The jump moves focus with the view.
 */
export function ProofPointer({ proofs }: { proofs: ProofView[] | null }) {
  const latest = proofs?.[0];
  if (latest?.status !== 'awaiting') return null;
  const jump = (event: MouseEvent<HTMLAnchorElement>) => {
    const heading = document.getElementById(PROOF_HEADING_ID);
    if (!heading) return;
    event.preventDefault();
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  };
  return (
    <section
      aria-labelledby="proof-pointer-heading"
      className="card flex flex-col gap-4 border-2 border-accent-600 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6"
      data-testid="proof-pointer"
    >
      <div>
        <h3 id="proof-pointer-heading" className="text-xl">
          Your stencil proof is ready
        </h3>
        <p className="mt-1 text-concrete-700">Version {latest.version} is waiting for your approval.</p>
      </div>
      <a href="#stencil-proof" className="btn-primary shrink-0 self-start sm:self-auto" onClick={jump}>
        See your proof
      </a>
    </section>
  );
}

export function ProofPanel({
  bookingId,
  proofs,
  reload,
  publishableKey,
}: {
  bookingId: number;
  proofs: ProofView[] | null;
  reload: () => void;
  publishableKey: string | null;
}) {
  if (!proofs || proofs.length === 0) return null;
  const [latest, ...earlier] = proofs as [ProofView, ...ProofView[]];
  return (
    <section id="stencil-proof" aria-labelledby={PROOF_HEADING_ID} className="card scroll-mt-4 p-6 sm:p-8" data-testid="customer-proof">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={PROOF_HEADING_ID} tabIndex={-1} className="text-2xl focus:outline-none">
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
 * The proof as a picture: an image proof itself, a PDF by its first page (rendered by the server
 * at upload, since phone browsers show no PDF inline), with the full PDF one tap away. A tap on
 * the picture opens it full size. A PDF the server could not draw keeps the browser's own viewer
 * where there is one, and its link.
 */
function ProofPreview({ proof }: { proof: ProofView }) {
  const [isZoomed, setZoomed] = useState(false);
  const label = `Stencil proof, version ${proof.version}`;
  const image = proofImageUrl(proof);
  const isPdf = isPdfProof(proof);
  const pdfLinks = (openLabel: string) => (
    <p className="mt-3 flex flex-wrap gap-3">
      <a className="btn-secondary" href={proof.fileUrl} target="_blank" rel="noopener">
        {openLabel}
      </a>
      <a className="btn-secondary" href={`${proof.fileUrl}?download=1`}>
        Download
      </a>
    </p>
  );
  if (!image) {
    const hasViewer = typeof navigator !== 'undefined' && navigator.pdfViewerEnabled === true;
    return (
      <div className="mt-4">
        {hasViewer && <iframe src={proof.fileUrl} title={label} className="h-[70vh] w-full rounded-lg border border-concrete-200" />}
        {pdfLinks('Open the proof (PDF)')}
      </div>
    );
  }
  const alt = isPdf ? `${label} (first page of the PDF)` : label;
  return (
    <div className="mt-4">
      <button
        type="button"
        aria-haspopup="dialog"
        className="group relative block w-full cursor-zoom-in rounded-lg"
        onClick={() => setZoomed(true)}
      >
        <img src={image} alt={alt} className="max-h-[70vh] w-full rounded-lg border border-concrete-200 bg-white object-contain" />
        <span className="absolute right-2 bottom-2 rounded-full bg-ink/85 px-3 py-1.5 text-sm font-semibold text-paper group-hover:bg-ink">
          View full size
        </span>
      </button>
      {isPdf && pdfLinks('Open the full PDF')}
      {isZoomed && (
        <ProofZoom src={image} alt={alt} title={`Version ${proof.version}, full size`} onClose={() => setZoomed(false)}>
          {isPdf && (
            <a className="btn-accent shrink-0" href={proof.fileUrl} target="_blank" rel="noopener">
              Open the full PDF
            </a>
          )}
        </ProofZoom>
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
