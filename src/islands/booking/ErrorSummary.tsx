import { useEffect, useRef } from 'react';
import { FILES_KEY, LOCATIONS_KEY, orderedErrors, type ErrorKey, type FormErrors } from './booking-store.ts';
import { controlId } from './Field.tsx';
import { tileControlId } from './QuantityPicker.tsx';

// The booking form's error summary at the top (GOV.UK pattern): every error in the page's order,
// each a link that moves focus to its field. It takes focus after each failed submit.

/** Where each error in the summary takes the person. */
function targetIdFor(key: ErrorKey, isCustom: boolean): string {
  if (key === 'workType') return controlId('workType-day');
  if (key === 'quantity') return isCustom ? controlId('quantity') : tileControlId('5');
  if (key === LOCATIONS_KEY) return controlId('location-search');
  if (key === FILES_KEY) return controlId('files');
  return controlId(key);
}

export function ErrorSummary({ errors, isCustom, focusRequest }: { errors: FormErrors; isCustom: boolean; focusRequest: number }) {
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focusRequest) summary.current?.focus();
  }, [focusRequest]);
  const listed = orderedErrors(errors);
  if (!listed.length) return null;
  return (
    <div
      ref={summary}
      tabIndex={-1}
      aria-labelledby="booking-error-summary-title"
      className="mb-8 rounded-2xl border-4 border-danger-600 bg-white p-5 focus:outline-3 focus:outline-offset-3 focus:outline-ink sm:p-6"
    >
      <h2 id="booking-error-summary-title" className="text-xl">
        There is a problem
      </h2>
      <ul className="mt-3 space-y-1.5">
        {listed.map(({ key, message }) => (
          <li key={key}>
            <a
              href={`#${targetIdFor(key, isCustom)}`}
              className="inline-flex min-h-8 items-center font-semibold text-danger-600 underline underline-offset-4 hover:decoration-2"
              onClick={(event) => {
                const target = document.getElementById(targetIdFor(key, isCustom));
                if (!target) return;
                event.preventDefault();
                target.focus({ preventScroll: true });
                (target.closest('[data-field]') ?? target).scrollIntoView({ block: 'start' });
              }}
            >
              {message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
