/**
 * The one error shape of api.md: `{error, fields?, requestId?}`. Routes and services throw
 * AppError; `handleError` in api/middleware/errors.ts turns it into the answer.
 */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 428 | 429 | 500 | 502 | 503;

export class AppError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
    /** More fields of the answer beside `error` (e.g. the 402's `amount`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, message, fields);
export const notFound = (message = 'Not found') => new AppError(404, message);
export const conflict = (message: string, fields?: Record<string, string>) => new AppError(409, message, fields);
export const notConfigured = (message: string) => new AppError(503, message);
