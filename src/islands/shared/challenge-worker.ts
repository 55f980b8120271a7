import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';

// Solves one proof-of-work challenge off the page's main thread (challenge.ts starts it), so the
// form stays responsive and readable while the browser works. PBKDF2 through crypto.subtle: each
// counter tried is one native call (limits/challenge.ts).

self.onmessage = async (event: MessageEvent<Challenge>) => {
  try {
    const solution = await solveChallenge({ challenge: event.data, deriveKey });
    self.postMessage({ solution });
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
