import { STENCIL_CHANGE_PENCE } from './pricing.ts';

// Stencil proof sign-off (api.md "Stencil proof sign-off"): the rules the tracking page, the
// dashboard and the server share.

/**
 * The largest stencil proof staff may upload, in bytes: one Netlify function request carries about
 * 4.5 MB of file (6 MB once base64-encoded), as the admin's photos do, and staff export proofs at
 * screen resolution, far below that. The API refuses more (413, services/proofs/stencil-proofs.ts)
 * and the proof-preview function reads no more (providers/pdf-preview-function.ts).
 */
export const MAX_PROOF_BYTES = 4 * 1024 * 1024;

export const PROOF_STATUSES = ['awaiting', 'approved', 'changes_requested', 'superseded'] as const;
export type ProofStatus = (typeof PROOF_STATUSES)[number];

export const PROOF_STATUS_LABEL: Record<ProofStatus, string> = {
  awaiting: 'Awaiting approval',
  approved: 'Approved',
  changes_requested: 'Changes requested',
  superseded: 'Replaced by a newer version',
};

/** public-site.md §9 "Limits", word for word. */
export const STENCIL_CHANGE_NOTICE = 'a stencil change after approval costs an extra £100';
/** Pounds, as the stencil-change answer and the 402 carry it. */
export const STENCIL_CHANGE_POUNDS = STENCIL_CHANGE_PENCE / 100;

export const PROOF_COMMENT_MAX_LENGTH = 2000;
export const PROOF_NOTE_MAX_LENGTH = 1000;
/** A reminder goes to the customer once, this many business days (Mon-Fri, London) after the upload. */
export const PROOF_REMINDER_BUSINESS_DAYS = 3;

export const PROOF_COMMENT_MESSAGE = `Please describe the changes you need (up to ${PROOF_COMMENT_MAX_LENGTH} characters).`;

/** The proof field of the admin's booking rows: the latest version's state and since when. */
export interface ProofSummary {
  status: ProofStatus;
  version: number;
  since: string;
}

/**
 * When the stencil was approved, with the proof's decision as the one source of truth: once a
 * booking has proofs, its latest version decides (approved: since when; anything else: not yet),
 * whatever date a step move stamped. A booking with no proof at all keeps the stamped date.
 */
export function stencilApprovedAt(stamped: string | null, proof: ProofSummary | null): string | null {
  if (!proof) return stamped;
  return proof.status === 'approved' ? proof.since : null;
}

/** A change asked for after approval, as GET /api/bookings/{id}/proofs lists it. */
export interface StencilChangeView {
  id: number;
  comment: string;
  /** Pounds. */
  amount: number;
  status: 'awaiting_payment' | 'paid' | 'waived';
  createdAt: string;
  paidAt: string | null;
  waivedAt: string | null;
  waivedBy: string | null;
  waivedReason: string | null;
}

/** One version as GET /api/bookings/{id}/proofs answers it (newest first). */
export interface ProofView {
  id: number;
  version: number;
  status: ProofStatus;
  note: string | null;
  fileUrl: string;
  /** A PDF proof's first page as a PNG, made at upload; null for images and unreadable PDFs. */
  previewUrl: string | null;
  mimeType: string;
  originalName: string;
  createdAt: string;
  decidedAt: string | null;
  comment: string | null;
  approvedAt: string | null;
  changes: StencilChangeView[];
}

export const isPdfProof = (proof: Pick<ProofView, 'mimeType'>) => proof.mimeType === 'application/pdf';

/**
 * The picture of a proof a page can show in an <img>: an image proof's own file, a PDF's
 * first-page preview, or null for a PDF without one (its link is all there is).
 */
export function proofImageUrl(proof: Pick<ProofView, 'mimeType' | 'fileUrl' | 'previewUrl'>): string | null {
  return isPdfProof(proof) ? proof.previewUrl : proof.fileUrl;
}

const PROOF_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

/** An instant as both sides read it: '3 December 2026, 14:05' (London). */
export function formatProofTime(iso: string): string {
  return PROOF_TIME.format(new Date(iso));
}
