import { z } from './zod.ts';
import { STENCIL_CHANGE_PENCE } from './pricing.ts';
import { cleanMultiLine } from './text.ts';

// Stencil proof sign-off (api.md "Stencil proof sign-off"): the rules the tracking page, the
// dashboard and the server share.

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

/** What the customer asks to change: 1-2000 characters once cleaned. */
export const proofCommentSchema = z.object({
  comment: z
    .string({ error: PROOF_COMMENT_MESSAGE })
    .transform(cleanMultiLine)
    .pipe(z.string().trim().min(1, { error: PROOF_COMMENT_MESSAGE }).max(PROOF_COMMENT_MAX_LENGTH, { error: PROOF_COMMENT_MESSAGE })),
});

/** Why staff waived the £100 of a change: kept with who did it. */
export const WAIVE_REASON_MESSAGE = 'Please give a reason for waiving the charge (up to 500 characters).';
export const waiveSchema = z.object({
  reason: z
    .string({ error: WAIVE_REASON_MESSAGE })
    .trim()
    .min(1, { error: WAIVE_REASON_MESSAGE })
    .max(500, { error: WAIVE_REASON_MESSAGE }),
});

/** The proof field of the admin's booking rows: the latest version's state and since when. */
export interface ProofSummary {
  status: ProofStatus;
  version: number;
  since: string;
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
  mimeType: string;
  originalName: string;
  createdAt: string;
  decidedAt: string | null;
  comment: string | null;
  approvedAt: string | null;
  changes: StencilChangeView[];
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
