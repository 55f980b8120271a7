import { MAX_RATING } from '../../domain/review-schema.ts';

const STAR_PATH = 'M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9L10 1.5z';
const STARS = Array.from({ length: MAX_RATING }, (_, index) => index + 1);

interface Props {
  /** Names the radio group and prefixes its ids. */
  name: string;
  legend: string;
  value: number | null;
  onChange: (value: number) => void;
  error?: string;
  required?: boolean;
  size?: 'lg' | 'md';
}

/**
 * Stars to choose a rating with: a native radio group under a fieldset, so arrow keys move
 * between stars, Tab enters and leaves the group, and a screen reader hears '4 stars, 4 of 5'.
 * The stars up to the chosen one are filled; the radios themselves are visually hidden.
 */
export function StarRatingInput({ name, legend, value, onChange, error, required = false, size = 'md' }: Props) {
  const errorId = `${name}-error`;
  const dimension = size === 'lg' ? 'size-10' : 'size-8';
  return (
    <fieldset aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend className="text-base font-semibold text-ink">
        {legend}
        {required ? (
          <span aria-hidden="true" className="text-danger-600">
            {' '}*
          </span>
        ) : (
          <span className="font-normal text-concrete-600"> (optional)</span>
        )}
      </legend>
      {error && (
        <p id={errorId} className="mt-1 text-sm font-semibold text-danger-600">
          <span className="sr-only">Error: </span>
          {error}
        </p>
      )}
      <div className="mt-2 flex items-center gap-1">
        {STARS.map((star) => {
          const id = `${name}-${star}`;
          const isFilled = value !== null && star <= value;
          return (
            <label
              key={star}
              htmlFor={id}
              className="relative flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-lg has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-accent-600"
            >
              <input
                id={id}
                type="radio"
                name={name}
                value={star}
                checked={value === star}
                onChange={() => onChange(star)}
                required={required && star === 1}
                className="sr-only"
              />
              <span className="sr-only">
                {star} {star === 1 ? 'star' : 'stars'}
              </span>
              <svg viewBox="0 0 20 20" aria-hidden="true" focusable="false" className={`${dimension} transition-colors ${isFilled ? 'fill-accent-500' : 'fill-concrete-200 hover:fill-accent-300'}`}>
                <path d={STAR_PATH} stroke={isFilled ? 'none' : '#8c8b84'} strokeWidth="0.6" />
              </svg>
            </label>
          );
        })}
        <span className="ml-2 text-sm text-concrete-600" aria-hidden="true">
          {value ? `${value} of ${MAX_RATING}` : 'Not rated'}
        </span>
      </div>
    </fieldset>
  );
}
