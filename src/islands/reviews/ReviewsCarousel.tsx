import { lazy, Suspense, useEffect, useState } from 'react';
import type { PublicReview } from '../../domain/review-schema.ts';
import { api } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { REVIEWS_SHOWN } from './carousel-options.ts';
import { BOX, CARD } from './layout.ts';

// keen-slider comes with the slider chunk, fetched alongside the reviews once the island is in
// view; the loading state needs none of it.
const loadSlider = () => import('./ReviewsSlider.tsx');
const ReviewsSlider = lazy(loadSlider);

export const EMPTY_MESSAGE = 'Customer reviews will appear here once submitted.';
export const ERROR_MESSAGE = 'Reviews could not be loaded just now. Please try again later.';

type LoadState = { kind: 'loading' } | { kind: 'ready'; reviews: PublicReview[] } | { kind: 'error' };

function ReviewsCarousel() {
  const [state, setState] = useState<LoadState>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    void loadSlider().catch(() => {}); // in parallel with the data; a failure surfaces when rendered
    api<PublicReview[]>('/api/reviews/public', { signal: controller.signal })
      .then((reviews) => setState({ kind: 'ready', reviews: Array.isArray(reviews) ? reviews : [] }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Reviews could not be loaded', error);
        setState({ kind: 'error' });
      });
    return () => controller.abort();
  }, []);

  if (state.kind === 'loading') return <LoadingReviews />;
  if (state.kind === 'error') return <QuietPanel tone="muted">{ERROR_MESSAGE}</QuietPanel>;
  if (state.reviews.length === 0) return <QuietPanel tone="plain">{EMPTY_MESSAGE}</QuietPanel>;
  return (
    <Suspense fallback={<LoadingReviews />}>
      <ReviewsSlider reviews={state.reviews.slice(0, REVIEWS_SHOWN)} total={state.reviews.length} />
    </Suspense>
  );
}

/** Placeholder cards at the loaded cards' size: one on phones, two from 768 px, three from 1024 px. */
function LoadingReviews() {
  return (
    <div className={BOX} data-state="loading" aria-busy="true">
      <p className="sr-only" role="status">
        Loading reviews…
      </p>
      <div className="grid gap-4 md:grid-cols-2 md:gap-5 lg:grid-cols-3 lg:gap-6" aria-hidden="true">
        {[0, 1, 2].map((index) => (
          <div
            key={index}
            className={`${CARD} rounded-[var(--radius-card)] border border-concrete-100 bg-white p-6 ${
              index === 1 ? 'hidden md:block' : index === 2 ? 'hidden lg:block' : ''
            }`}
          >
            <div className="h-5 w-28 rounded bg-concrete-100 motion-safe:animate-pulse" />
            <div className="mt-6 space-y-3">
              <div className="h-4 rounded bg-concrete-100 motion-safe:animate-pulse" />
              <div className="h-4 rounded bg-concrete-100 motion-safe:animate-pulse" />
              <div className="h-4 w-2/3 rounded bg-concrete-100 motion-safe:animate-pulse" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

function QuietPanel({ tone, children }: { tone: 'plain' | 'muted'; children: string }) {
  return (
    <div
      className={`${BOX} flex items-center justify-center rounded-[var(--radius-card)] border border-dashed border-concrete-300 p-8 text-center`}
      data-state={tone === 'plain' ? 'empty' : 'error'}
    >
      <p className={tone === 'plain' ? 'text-lg text-concrete-700' : 'text-concrete-600'}>{children}</p>
    </div>
  );
}

export default withErrorBoundary(ReviewsCarousel);
