import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError } from '../../app/errors.ts';
import type { AppEnv } from '../../app/request.ts';

/** One onError for the whole API: AppError → its status; anything else → 500 with a request id, no internals. */
export const handleError: ErrorHandler<AppEnv> = (error, c) => {
  const requestId = c.get('requestId');
  if (error instanceof AppError) {
    for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
    return c.json(
      { error: error.message, ...error.extra, ...(error.fields ? { fields: error.fields } : {}), requestId },
      error.status,
    );
  }
  if (error instanceof HTTPException && error.status < 500) {
    return c.json({ error: error.message || 'Bad request', requestId }, error.status);
  }
  if (isDatabaseUnavailable(error)) {
    // Not a bug of ours and nothing half-written: every write is one transaction, rolled back.
    c.get('deps')?.log.error('Database unavailable', { requestId, path: c.req.path, ...describeError(error) });
    c.header('Retry-After', '5');
    return c.json({ error: DATABASE_UNAVAILABLE, requestId }, 503);
  }
  c.get('deps')?.log.error('Unhandled error', { requestId, path: c.req.path, ...describeError(error) });
  return c.json({ error: 'Something went wrong on our side. Please try again.', requestId }, 500);
};

export const DATABASE_UNAVAILABLE =
  'Our booking system is unavailable for a moment and nothing was saved. Please try again in a minute.';

/** Connection-level failures (refused, dropped, server shutting down), by code or by message. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
const CONNECTION_MESSAGE = /connection (terminated|refused|ended)|PGlite is closed|Cannot use a pool after calling end|database system is (starting up|shutting down)/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Object && depth < 5; current = (current as { cause?: unknown }).cause, depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    if (typeof message === 'string' && CONNECTION_MESSAGE.test(message)) return true;
  }
  return false;
}

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
