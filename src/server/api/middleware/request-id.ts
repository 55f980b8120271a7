import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../app/request.ts';

/**
 * An incoming id is kept only when it looks like one a proxy or our own browser code would send;
 * anything else (spaces, quotes, log-like text, a 200-character essay) is replaced, because the id
 * is echoed in the answer and written into every log line of the request.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;
const HEADER = 'X-Request-Id';

export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const incoming = c.req.header(HEADER);
  const id = incoming && REQUEST_ID_PATTERN.test(incoming) ? incoming : crypto.randomUUID();
  c.set('requestId', id);
  c.header(HEADER, id);
  await next();
};
