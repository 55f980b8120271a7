import 'keen-slider/keen-slider.min.css';
import { useMemo, useState, useSyncExternalStore } from 'react';
import { useKeenSlider, type KeenSliderInstance } from 'keen-slider/react';
import type { PublicReview } from '../../domain/review-schema.ts';
import { StarRating } from './StarRating.tsx';
import { carouselOptions, formatReviewDate, showingText } from './carousel-options.ts';
import { BOX, BUTTON, CARD } from './layout.ts';

/**
 * The slider itself, in its own chunk: keen-slider's script loads only once the island is in
 * view and never for the empty or error states. (Astro still links its small stylesheet from
 * the page's head; see docs/PERFORMANCE.md.)
 */
export default function ReviewsSlider({ reviews, total }: { reviews: PublicReview[]; total: number }) {
  const reducedMotion = usePrefersReducedMotion();
  const [position, setPosition] = useState({ canPrev: false, canNext: false });
  const [announcement, setAnnouncement] = useState('');

  const options = useMemo(() => {
    const track = (slider: KeenSliderInstance) => {
      const details = slider.track.details;
      if (!details) return;
      const loops = Boolean(slider.options.loop);
      setPosition({
        canPrev: loops || details.rel > details.minIdx,
        canNext: loops || details.rel < details.maxIdx,
      });
    };
    return {
      ...carouselOptions(reviews.length, reducedMotion),
      created: track,
      optionsChanged: track,
      updated: track,
      slideChanged(slider: KeenSliderInstance) {
        track(slider);
        setAnnouncement(`Review ${slider.track.details.rel + 1} of ${reviews.length}`);
      },
    };
  }, [reviews.length, reducedMotion]);

  const [sliderRef, slider] = useKeenSlider<HTMLDivElement>(options);
  const showing = showingText(reviews.length, total);

  return (
    <div className={`${BOX} flex flex-col`} data-state="ready">
      <div role="region" aria-roledescription="carousel" aria-label="Customer reviews">
        <div ref={sliderRef} className="keen-slider">
          {reviews.map((review, index) => (
            <div
              key={review.id}
              className="keen-slider__slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${reviews.length}`}
            >
              <ReviewCard review={review} />
            </div>
          ))}
        </div>
        <div className="mt-6 flex min-h-11 flex-wrap items-center justify-between gap-4">
          <p className="text-sm text-concrete-600">{showing}</p>
          <div className="flex gap-3">
            <button
              type="button"
              className={BUTTON}
              aria-label="Previous reviews"
              disabled={!position.canPrev}
              onClick={() => step(slider.current, -1)}
            >
              <Arrow direction="left" />
            </button>
            <button
              type="button"
              className={BUTTON}
              aria-label="Next reviews"
              disabled={!position.canNext}
              onClick={() => step(slider.current, 1)}
            >
              <Arrow direction="right" />
            </button>
          </div>
        </div>
        <p className="sr-only" aria-live="polite">
          {announcement}
        </p>
      </div>
    </div>
  );
}

function ReviewCard({ review }: { review: PublicReview }) {
  const subRatings = [
    { label: 'Service quality', value: review.serviceQuality },
    { label: 'Timeliness', value: review.timeliness },
    { label: 'Communication', value: review.communication },
  ].filter((entry): entry is { label: string; value: number } => typeof entry.value === 'number');

  return (
    <article className={`${CARD} flex h-full flex-col rounded-[var(--radius-card)] border border-concrete-100 bg-white p-6`}>
      <StarRating rating={review.rating} />
      <blockquote className="mt-4 flex-1 text-concrete-800">
        <p>“{review.reviewText}”</p>
      </blockquote>
      <footer className="mt-5">
        <p className="font-semibold text-ink">{review.customerName}</p>
        <p className="text-sm text-concrete-600">
          <time dateTime={review.submittedAt}>{formatReviewDate(review.submittedAt)}</time>
        </p>
        {subRatings.length > 0 && (
          <dl className="mt-4 grid gap-1.5 border-t border-concrete-100 pt-4 text-sm text-concrete-700">
            {subRatings.map((entry) => (
              <div key={entry.label} className="flex items-center justify-between gap-3">
                <dt>{entry.label}</dt>
                <dd>
                  <StarRating rating={entry.value} size="sm" />
                </dd>
              </div>
            ))}
          </dl>
        )}
      </footer>
    </article>
  );
}

function Arrow({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="size-5" fill="none" stroke="currentColor">
      <path
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        d={direction === 'left' ? 'M15 18l-6-6 6-6' : 'M9 6l6 6-6 6'}
      />
    </svg>
  );
}

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Follows the visitor's reduced-motion setting, including changes while the page is open. */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(REDUCED_MOTION_QUERY);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    },
    () => window.matchMedia(REDUCED_MOTION_QUERY).matches,
    () => false,
  );
}

/**
 * One review on from where the slider is going, not from where it is: keen-slider's prev() and
 * next() count from the current position, so a press during a slide's animation would count from
 * the slide being left (Next then a quick Previous would loop past the first review).
 */
function step(slider: KeenSliderInstance | null, delta: 1 | -1) {
  if (!slider) return;
  const from = slider.animator.targetIdx ?? slider.track.details.abs;
  slider.moveToIdx(from + delta, true);
}
