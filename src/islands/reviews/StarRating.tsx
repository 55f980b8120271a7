import { ratingLabel } from './carousel-options.ts';

const STAR_PATH =
  'M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9L10 1.5z';

interface Props {
  /** 1 to 5. */
  rating: number;
  size?: 'md' | 'sm';
}

/**
 * Five stars, `rating` of them filled. Read as one image with the words 'Rated 4 out of 5':
 * the stars themselves carry no meaning for a screen reader.
 */
export function StarRating({ rating, size = 'md' }: Props) {
  const dimension = size === 'md' ? 'size-5' : 'size-4';
  return (
    <span role="img" aria-label={ratingLabel(rating)} className="inline-flex items-center gap-0.5">
      {[1, 2, 3, 4, 5].map((position) => (
        <svg
          key={position}
          viewBox="0 0 20 20"
          aria-hidden="true"
          focusable="false"
          className={`${dimension} ${position <= rating ? 'fill-accent-600' : 'fill-concrete-200'}`}
        >
          <path d={STAR_PATH} />
        </svg>
      ))}
    </span>
  );
}
