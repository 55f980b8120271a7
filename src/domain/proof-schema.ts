import * as z from './zod.ts';
import { cleanMultiLine } from './text.ts';
import { PROOF_COMMENT_MAX_LENGTH, PROOF_COMMENT_MESSAGE } from './proofs.ts';

// The bodies of the proof decisions, parsed by the server. Apart from domain/proofs.ts so the
// pages that show proofs do not carry zod for two one-field forms (their inputs say the same
// limits with required and maxLength).

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
