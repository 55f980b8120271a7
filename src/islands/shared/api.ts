import { CHALLENGE_ATTEMPTS, CHALLENGE_HEADER, challengeOf, solveChallenge } from './challenge.ts';

/**
 * The browser's one HTTP helper (conventions habit 11). Sends cookies, sends and reads JSON,
 * and turns a non-OK answer into an ApiError whose message is the server's `error` text
 * (api.md), falling back to "status: text" as public-site.md §7 describes.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string> = {},
    /** The server's Retry-After, in seconds, when it sent one (429, and 503 while busy). */
    readonly retryAfterSeconds: number | null = null,
    /** A 428's proof-of-work challenge (challenge.ts), when the server sent one. */
    readonly challenge: object | null = null,
    /** The answer's other fields beside `error` and `fields` (a 409's fresh list of days, the sign-in's `codeRequired`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiOptions extends Omit<RequestInit, 'body'> {
  /** A value to send as JSON, or FormData for uploads. */
  body?: unknown;
}

export async function api<T = unknown>(url: string, options: ApiOptions = {}): Promise<T> {
  return (await send<T>(url, options)).data;
}

/** One page of a long admin list: the rows, the total (X-Total-Count) and the next page's cursor (X-Next-Cursor). */
export interface ApiPage<T> {
  items: T[];
  total: number | null;
  nextCursor: string | null;
}

export async function apiPage<T>(url: string, options: ApiOptions = {}): Promise<ApiPage<T>> {
  const { data, headers } = await send<T[]>(url, options);
  const total = Number(headers.get('X-Total-Count') ?? Number.NaN);
  return { items: data ?? [], total: Number.isFinite(total) ? total : null, nextCursor: headers.get('X-Next-Cursor') };
}

/**
 * One call. A 428 with a challenge (a site-wide ceiling, api.md) is solved in a web worker and the
 * same request sent again with the solution, so every form gets it for free.
 */
async function send<T>(url: string, options: ApiOptions): Promise<{ data: T; headers: Headers }> {
  const { body, headers, ...rest } = options;
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  let solved: string | undefined;
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(url, {
      credentials: 'include',
      ...rest,
      method: rest.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        Accept: 'application/json',
        ...(body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
        ...(solved ? { [CHALLENGE_HEADER]: solved } : {}),
      },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
    });
    if (response.status === 204) return { data: undefined as T, headers: response.headers };
    const text = await response.text();
    if (response.ok) return { data: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
    const error = errorFrom(response, text);
    if (!error.challenge || attempt >= CHALLENGE_ATTEMPTS) throw error;
    solved = await solveChallenge(error.challenge);
  }
}

function errorFrom(response: Response, text: string): ApiError {
  const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
  const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; fields?: Record<string, string> };
    const challenge = response.status === 428 ? challengeOf(parsed) : null;
    const { error: message, fields, ...extra } = parsed;
    if (typeof message === 'string') return new ApiError(message, response.status, fields ?? {}, retryAfterSeconds, challenge, extra);
  } catch {
    /* not JSON: fall through to the spec's "status: text" form */
  }
  return new ApiError(`${response.status}: ${text || response.statusText}`, response.status, {}, retryAfterSeconds);
}

/** What a failed call says, for a toast or an inline error: the server's own message when it sent one. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
