import type { Context } from 'hono';
import type { AppEnv } from '../app/request.ts';

/**
 * Runs `task` after this request is answered. On Netlify the function's `context.waitUntil`
 * keeps the instance alive until the task settles (otherwise it may be frozen with the answer);
 * the local server simply keeps running.
 */
export function afterResponse(c: Context<AppEnv>, task: () => Promise<unknown>): void {
  const promise = c.get('deps').background.run(task);
  c.env?.context?.waitUntil?.(promise);
}
