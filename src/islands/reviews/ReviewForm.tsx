import { useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $checking, CHECKING_LABEL } from '../shared/challenge.ts';
import { api, ApiError } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { FormField, INPUT_CLASS, messagesByField } from '../shared/FormField.tsx';
import { showToast } from '../shared/toast-store.ts';
import { Toaster } from '../shared/Toaster.tsx';
import { REVIEW_POLICY } from '../../content/review-policy.ts';
import { BUSINESS } from '../../content/business.ts';
import {
  REVIEW_TEXT_MAX_LENGTH,
  SUB_RATINGS,
  reviewFormSchema,
  type SubRatingKey,
} from '../../domain/review-schema.ts';
import { StarRatingInput } from './StarRatingInput.tsx';

// The review form of /review (api.md: reviews by invitation only). The link's token names the
// project; the form says whose it is, takes the ratings and the words, and spends the token.

interface ReviewRequest {
  bookingId: number;
  firstName: string;
}

type LinkState =
  | { kind: 'loading' }
  | { kind: 'missing' }
  | { kind: 'unknown' }
  | { kind: 'used' }
  | { kind: 'failed' }
  | { kind: 'ready'; token: string; request: ReviewRequest }
  | { kind: 'sent'; firstName: string };

type Ratings = { rating: number | null } & Record<SubRatingKey, number | null>;
type ErrorKey = 'rating' | 'reviewText' | SubRatingKey;

export const LINK_MESSAGES = {
  missing: 'This page needs the review link from your e-mail. Please open the link we sent you once your project was completed.',
  unknown: 'We do not recognise this review link. Please check that you opened the whole link from your e-mail.',
  used: 'This review link has already been used or has expired. Each link works once, for 30 days.',
  failed: 'We could not load your review link just now. Please try again in a moment.',
} as const;

function ReviewForm() {
  const [link, setLink] = useState<LinkState>({ kind: 'loading' });

  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('t')?.trim();
    if (!token) return setLink({ kind: 'missing' });
    const controller = new AbortController();
    api<ReviewRequest>(`/api/reviews/request/${encodeURIComponent(token)}`, { signal: controller.signal })
      .then((request) => setLink({ kind: 'ready', token, request }))
      .catch((failure: unknown) => {
        if (controller.signal.aborted) return;
        setLink(linkFailure(failure));
      });
    return () => controller.abort();
  }, []);

  return (
    <>
      {link.kind === 'loading' && (
        <div className="card p-6 sm:p-8" role="status">
          <p className="text-concrete-700">Checking your review link...</p>
        </div>
      )}
      {link.kind === 'missing' && <Notice title="Review link needed">{LINK_MESSAGES.missing}</Notice>}
      {link.kind === 'unknown' && <Notice title="Review link not found">{LINK_MESSAGES.unknown}</Notice>}
      {link.kind === 'used' && <Notice title="This review link can no longer be used">{LINK_MESSAGES.used}</Notice>}
      {link.kind === 'failed' && <Notice title="Something went wrong">{LINK_MESSAGES.failed}</Notice>}
      {link.kind === 'ready' && (
        <ReviewFields
          token={link.token}
          request={link.request}
          onSent={() => setLink({ kind: 'sent', firstName: link.request.firstName })}
          onLinkGone={(failure) => setLink(linkFailure(failure))}
        />
      )}
      {link.kind === 'sent' && <Thanks firstName={link.firstName} />}
      <Toaster />
    </>
  );
}

function linkFailure(failure: unknown): LinkState {
  if (failure instanceof ApiError && failure.status === 404) return { kind: 'unknown' };
  if (failure instanceof ApiError && failure.status === 410) return { kind: 'used' };
  return { kind: 'failed' };
}

function ReviewFields({
  token,
  request,
  onSent,
  onLinkGone,
}: {
  token: string;
  request: ReviewRequest;
  onSent: () => void;
  onLinkGone: (failure: ApiError) => void;
}) {
  const [ratings, setRatings] = useState<Ratings>({ rating: null, serviceQuality: null, timeliness: null, communication: null });
  const [reviewText, setReviewText] = useState('');
  const [errors, setErrors] = useState<Partial<Record<ErrorKey, string>>>({});
  const [isSending, setIsSending] = useState(false);
  const isChecking = useStore($checking);

  function rate(key: keyof Ratings) {
    return (value: number) => {
      setRatings((current) => ({ ...current, [key]: value }));
      setErrors((current) => ({ ...current, [key]: undefined }));
    };
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSending) return;
    const parsed = reviewFormSchema.safeParse({ ...ratings, rating: ratings.rating ?? undefined, reviewText });
    if (!parsed.success) {
      const found = messagesByField(parsed.error.issues) as Partial<Record<ErrorKey, string>>;
      setErrors(found);
      const first = found.rating ? 'rating-1' : found.reviewText ? 'review-reviewText' : null;
      if (first) document.getElementById(first)?.focus();
      return;
    }
    setErrors({});
    setIsSending(true);
    try {
      await api('/api/reviews', { body: { token, ...parsed.data } });
      onSent();
    } catch (failure) {
      setIsSending(false);
      if (failure instanceof ApiError && (failure.status === 404 || failure.status === 410)) return onLinkGone(failure);
      const message = failure instanceof ApiError ? failure.message : 'Please try again in a moment.';
      showToast({ title: 'Your review was not sent', description: message, variant: 'destructive' });
      if (failure instanceof ApiError) setErrors(failure.fields as Partial<Record<ErrorKey, string>>);
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="review-form-title" className="card p-6 sm:p-8">
      <h2 id="review-form-title" className="text-2xl sm:text-3xl">
        Review your project, {request.firstName}
      </h2>
      <p className="mt-2 text-concrete-700">
        Booking #{request.bookingId}. Tell other businesses how your {BUSINESS.name} campaign went. Your review is published
        with your first name and last initial.
      </p>

      <div className="mt-6 space-y-6">
        <StarRatingInput name="rating" legend="Overall rating" size="lg" required value={ratings.rating} onChange={rate('rating')} error={errors.rating} />

        <FormField
          form="review"
          name="reviewText"
          label={
            <>
              Your review<span aria-hidden="true" className="text-danger-600"> *</span>
            </>
          }
          hint={`What went well, and what could have gone better? Up to ${REVIEW_TEXT_MAX_LENGTH} characters.`}
          error={errors.reviewText}
        >
          {(control) => (
            <textarea
              {...control}
              rows={6}
              required
              maxLength={REVIEW_TEXT_MAX_LENGTH}
              className={INPUT_CLASS}
              value={reviewText}
              onChange={(event) => {
                setReviewText(event.target.value);
                if (errors.reviewText && event.target.value.trim()) setErrors((current) => ({ ...current, reviewText: undefined }));
              }}
            />
          )}
        </FormField>

        <div className="grid gap-5 border-t border-concrete-100 pt-5">
          {SUB_RATINGS.map(({ key, label }) => (
            <StarRatingInput key={key} name={key} legend={label} value={ratings[key]} onChange={rate(key)} error={errors[key]} />
          ))}
        </div>
      </div>

      <button type="submit" className="btn-primary mt-8 w-full disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto" disabled={isSending}>
        {isSending ? (isChecking ? CHECKING_LABEL : 'Sending...') : 'Submit Review'}
      </button>

      <ReviewPolicy />
    </form>
  );
}

export function ReviewPolicy() {
  return (
    <section aria-labelledby="review-policy-title" className="mt-8 rounded-2xl bg-concrete-50 p-5 text-sm text-concrete-700">
      <h3 id="review-policy-title" className="text-base font-semibold text-ink">
        {REVIEW_POLICY.title}
      </h3>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {REVIEW_POLICY.points.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
    </section>
  );
}

function Notice({ title, children }: { title: string; children: string }) {
  return (
    <div className="card p-6 sm:p-8" role="status">
      <h2 className="text-2xl">{title}</h2>
      <p className="mt-3 text-concrete-700">{children}</p>
      <p className="mt-3 text-concrete-700">
        Need a new link? E-mail <a className="font-semibold underline underline-offset-4" href={BUSINESS.emailHref}>{BUSINESS.email}</a> or call{' '}
        <a className="font-semibold underline underline-offset-4" href={BUSINESS.phoneHref}>{BUSINESS.phone}</a>.
      </p>
      <a href="/gallery#reviews" className="btn-secondary mt-6">
        Read our reviews
      </a>
    </div>
  );
}

function Thanks({ firstName }: { firstName: string }) {
  return (
    <div className="card p-6 sm:p-8" role="status">
      <h2 className="text-2xl sm:text-3xl">Thank you, {firstName}!</h2>
      <p className="mt-3 text-concrete-700">Your review has been published. It helps other businesses decide, and it helps us improve.</p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <a href="/gallery#reviews" className="btn-primary">
          See the reviews
        </a>
        <a href="/" className="btn-secondary">
          Return to Home
        </a>
      </div>
    </div>
  );
}

export default withErrorBoundary(ReviewForm);
