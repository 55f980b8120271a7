import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { AppError } from '../../app/errors.ts';
import type { AppEnv } from '../../app/request.ts';
import { inspectJsonText } from './json-shape.ts';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Caps a request body (by Content-Length and by bytes actually read): too large → 413, never 500. */
export const limitBody = (maxSize: number): MiddlewareHandler<AppEnv> =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new AppError(413, `Request body is too large (the limit is ${formatLimit(maxSize)})`);
    },
  });

function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * Reads a JSON body and validates it with the shared zod schema. Wrong content type → 415,
 * malformed JSON → 400, failed checks → 400 with the spec's message per field.
 */
export async function readJson<T extends z.ZodType>(c: Context<AppEnv>, schema: T): Promise<z.infer<T>> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new AppError(415, 'Content-Type must be application/json');
  }
  let text: string;
  try {
    text = await c.req.text();
  } catch (error) {
    // The body limit's 413 passes through; a body that cannot be read at all is malformed.
    if (error instanceof AppError) throw error;
    throw new AppError(400, 'Malformed JSON body');
  }
  // Checked on the text, before JSON.parse or anything else recursive sees it (json-shape.ts).
  const shape = inspectJsonText(text);
  if (shape.isTooDeep) throw new AppError(400, 'Request body is nested too deeply');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError(400, 'Malformed JSON body');
  }
  // PostgreSQL cannot store U+0000 in text; refuse it here rather than fail in the database.
  if (shape.hasNul) throw new AppError(400, 'Text must not contain NUL characters');
  return validate(schema, body);
}

export function validate<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    fields[key] ??= issue.message;
  }
  const first = Object.values(fields)[0] ?? 'Invalid request';
  throw new AppError(400, first, fields);
}

/**
 * Reads a small multipart/form-data body whole (a photo or a proof, both far under the body limit
 * in front of the route): not multipart → 415 with `notMultipart`, the spec's words for the route;
 * a body that does not parse → 400. The body limit's 413 passes through. Brand files, which can be
 * 10 MB, stream to disk instead (multipart-file.ts).
 */
export async function readMultipartForm<E extends AppEnv>(c: Context<E>, notMultipart: string): Promise<FormData> {
  if (!c.req.header('content-type')?.toLowerCase().startsWith('multipart/form-data')) {
    throw new AppError(415, notMultipart);
  }
  try {
    return await c.req.raw.formData();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(400, 'Malformed multipart body');
  }
}
