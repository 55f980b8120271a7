import type { MiddlewareHandler } from 'hono';
import { badRequest } from '../../app/errors.ts';
import type { AppEnv } from '../../app/request.ts';

export const NUL_IN_URL_MESSAGE = 'The address holds a character that is not allowed';

/**
 * PostgreSQL text cannot hold U+0000: a query string or path parameter carrying one (`?q=%00`)
 * would reach a search and fail inside the database as a 500. Refused here, once, for every
 * route, before any handler reads its query or parameters.
 */
export const refuseNulInUrl: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = c.req.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const pathAndQuery = start < 0 ? '' : url.slice(start);
  if (/%00|\u0000/i.test(pathAndQuery)) throw badRequest(NUL_IN_URL_MESSAGE);
  return next();
};
