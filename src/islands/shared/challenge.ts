import { atom } from 'nanostores';
import { showToast } from './toast-store.ts';

// api.md "Abuse and availability": past a site-wide ceiling the server answers 428 with a
// proof-of-work challenge. api() (and the upload client) solve it here, in a web worker, and send
// the same request again with the solution in X-Altcha: the form keeps what was typed, shows
// "Checking…" meanwhile, and the toast's live region tells a screen-reader user what is happening.

/** The header the solved challenge travels in. */
export const CHALLENGE_HEADER = 'X-Altcha';
/** What a form's submit button says while the browser solves a challenge. */
export const CHECKING_LABEL = 'Checking…';
export const CHECKING_TOAST = {
  title: CHECKING_LABEL,
  description: 'We are busier than usual, so your browser is doing a quick check. What you typed is kept.',
};
/** A challenge solved and still refused (a replay, an expiry) is solved once more, then the error shows. */
export const CHALLENGE_ATTEMPTS = 2;

/** True while the browser is solving a challenge; forms show CHECKING_LABEL. */
export const $checking = atom(false);

/** Whether an answer body carries a challenge to solve. */
export function challengeOf(body: unknown): object | null {
  const challenge = (body as { challenge?: unknown } | null)?.challenge;
  return typeof challenge === 'object' && challenge !== null ? challenge : null;
}

/** Solves the challenge in a web worker and returns the X-Altcha value (base64 of {challenge, solution}). */
export async function solveChallenge(challenge: object): Promise<string> {
  $checking.set(true);
  showToast(CHECKING_TOAST);
  const worker = new Worker(new URL('./challenge-worker.ts', import.meta.url), { type: 'module' });
  try {
    const solution = await new Promise<unknown>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<{ solution?: unknown; error?: string }>) =>
        event.data.solution ? resolve(event.data.solution) : reject(new Error(event.data.error ?? 'The check could not finish'));
      worker.onerror = () => reject(new Error('The check could not run in this browser'));
      worker.postMessage(challenge);
    });
    return btoa(JSON.stringify({ challenge, solution }));
  } finally {
    worker.terminate();
    $checking.set(false);
  }
}
