import { useEffect, useRef } from 'react';

/** What the crew page says when its link cannot open a day: ended, not yet started, unknown, or no signal. */
export function LinkProblem({ status, message, onRetry, children }: { status: number | null; message: string; onRetry: () => void; children: React.ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="mx-auto max-w-xl px-5 py-12">
      <div className="card p-6">
        <p className="eyebrow">Crew day</p>
        <h1 ref={heading} tabIndex={-1} className="mt-2 text-2xl focus:outline-none">
          {status === 410 ? 'This link has ended' : status === 403 ? 'Your day has not started' : status === null ? 'No signal' : 'This link does not work'}
        </h1>
        <p className="mt-3 text-concrete-700">{message}</p>
        {status === null && (
          <button type="button" className="btn-primary mt-5" onClick={onRetry}>
            Try again
          </button>
        )}
      </div>
      <div className="mt-4">{children}</div>
    </div>
  );
}

