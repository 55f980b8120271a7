import { useCallback, useEffect, useId, useState } from 'react';
import { adminApi } from '../admin-api.ts';
import { showToast } from '../../shared/toast-store.ts';
import { StarRating } from '../../reviews/StarRating.tsx';
import { REVIEW_HIDE_REASONS, REVIEW_POLICY, type ReviewHideReason } from '../../../content/review-policy.ts';
// Type-only: the answer of GET /api/admin/reviews as the server types it.
import type { AdminReview } from '../../../server/services/reviews/review-moderation.ts';

/**
 * Every review, published whatever its score. Staff may hide one only for a reason the published
 * policy names (abuse, personal data); the reason is logged and shown here, and it can be undone.
 */
export function ReviewModeration() {
  const [items, setItems] = useState<AdminReview[] | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const refresh = useCallback(() => {
    adminApi<AdminReview[]>('/api/admin/reviews').then(setItems).catch(() => setItems([]));
  }, []);
  useEffect(refresh, [refresh]);

  const change = async (review: AdminReview, body: { reason: ReviewHideReason } | null) => {
    setBusy(review.id);
    try {
      await adminApi(`/api/admin/reviews/${review.id}/${body ? 'hide' : 'restore'}`, body ? { body } : { method: 'POST' });
      showToast({ title: body ? 'Review Hidden' : 'Review Published', description: `Review by ${review.customerName}` });
      refresh();
    } catch (error) {
      showToast({ title: 'Update Failed', description: error instanceof Error ? error.message : undefined, variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="moderation-heading">
      <h2 id="moderation-heading" className="text-xl">Reviews received</h2>
      <p className="mt-1 max-w-2xl text-sm text-concrete-700">{REVIEW_POLICY.points.join(' ')}</p>
      {items === null ? (
        <p role="status" className="mt-4 text-concrete-600">Loading reviews…</p>
      ) : items.length === 0 ? (
        <p className="mt-4 text-concrete-700">No reviews yet.</p>
      ) : (
        <ul className="mt-4 space-y-3">
          {items.map((review) => (
            <ReviewRow key={review.id} review={review} busy={busy === review.id} onChange={(body) => void change(review, body)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ReviewRow({ review, busy, onChange }: { review: AdminReview; busy: boolean; onChange: (body: { reason: ReviewHideReason } | null) => void }) {
  const selectId = useId();
  const [reason, setReason] = useState<ReviewHideReason>('abusive');
  return (
    <li className="card p-4 sm:p-5" data-testid="admin-review">
      <div className="flex flex-wrap items-center gap-3">
        <StarRating rating={review.rating} size="sm" />
        <span className="font-semibold">{review.customerName}</span>
        <span className="text-sm text-concrete-600">{new Date(review.submittedAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' })}</span>
        {review.isPublished ? (
          <span className="rounded-full bg-accent-50 px-2.5 py-0.5 text-xs font-semibold text-accent-700">Published</span>
        ) : (
          <span className="rounded-full bg-danger-50 px-2.5 py-0.5 text-xs font-semibold text-danger-600">
            Hidden: {review.hiddenReason ? REVIEW_HIDE_REASONS[review.hiddenReason] : 'no reason recorded'}
          </span>
        )}
      </div>
      <p className="mt-2 whitespace-pre-wrap text-concrete-800">{review.reviewText}</p>
      <div data-change className="mt-3 flex flex-wrap items-end gap-2">
        {review.isPublished ? (
          <>
            <label htmlFor={selectId} className="sr-only">
              Reason to hide the review by {review.customerName}
            </label>
            <select id={selectId} value={reason} onChange={(event) => setReason(event.target.value as ReviewHideReason)} className="min-h-11 rounded-xl border border-concrete-300 bg-white px-3 text-base sm:text-sm">
              {Object.entries(REVIEW_HIDE_REASONS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => onChange({ reason })}>
              Hide review
            </button>
          </>
        ) : (
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => onChange(null)}>
            Publish again
          </button>
        )}
      </div>
    </li>
  );
}
