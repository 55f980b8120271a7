import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError } from '../errors.ts';
import type { AppEnv } from '../deps.ts';

/** One onError for the whole API: AppError → its status; anything else → 500 with a request id, no internals. */
export const handleError: ErrorHandler<AppEnv> = (error, c) => {
  const requestId = c.get('requestId');
  if (error instanceof AppError) {
    for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
    return c.json(
      { error: error.message, ...(error.fields ? { fields: error.fields } : {}), requestId },
      error.status,
    );
  }
  if (error instanceof HTTPException && error.status < 500) {
    return c.json({ error: error.message || 'Bad request', requestId }, error.status);
  }
  c.get('deps')?.log.error('Unhandled error', { requestId, path: c.req.path, ...describeError(error) });
  return c.json({ error: 'Something went wrong on our side. Please try again.', requestId }, 500);
};

export const handleNotFound: NotFoundHandler<AppEnv> = (c) =>
  c.json({ error: 'Not found', requestId: c.get('requestId') }, 404);

export const handleMethodNotAllowed = (c: Context<AppEnv>, methods: string[]) =>
  c.json({ error: 'Method not allowed', requestId: c.get('requestId') }, 405, { Allow: methods.join(', ') });

/**
 * What the log keeps of an unexpected error: its kind and the database's own message, never
 * the query parameters (drizzle puts the customer's values after "params:").
 */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error).slice(0, 200) };
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const withoutParams = (message: string) => message.split('\nparams:')[0]!.slice(0, 500);
  return {
    error: `${error.name}: ${withoutParams(error.message)}`,
    ...(cause ? { cause: `${cause.name}: ${withoutParams(cause.message)}`, code: (cause as { code?: unknown }).code } : {}),
    // Only the frames: the stack's first lines repeat the message, parameters included.
    stack: error.stack?.split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 5).join('\n'),
  };
}
