import { api, ApiError } from '../shared/api.ts';
import { CHALLENGE_ATTEMPTS, CHALLENGE_HEADER, challengeOf, solveChallenge } from '../shared/challenge.ts';
import type { UploadedFile } from '../../domain/booking-schema.ts';
import { UPLOAD_PART_BYTES } from '../../domain/upload-parts.ts';

// Uploads for section 5 of the booking form. fetch() reports no upload progress, so files go
// through XMLHttpRequest here, the one place in the browser that does not use api(): it still
// sends cookies and reads the API's {error} answers the same way (public-site.md §7).
//
// With PUBLIC_UPLOADCARE_PUBLIC_KEY set (production on Netlify, whose functions take at most
// 6 MB a request), files go straight to Uploadcare as signed uploads and the server then checks
// each one with Uploadcare before it may be attached to a booking (api.md), and stores
// it there when the booking is made. Without it, a file above one part (4 MiB) goes to the site in
// parts, each within the 6 MB a Netlify function takes (uploadInParts below).

export const UPLOAD_URL = '/api/upload';
export const UPLOADCARE_SIGNATURE_URL = '/api/upload/uploadcare-signature';
export const UPLOADCARE_ATTACH_URL = '/api/upload/uploadcare';
export const UPLOAD_PARTS_URL = '/api/upload/parts';
/** Tries of one part before the upload gives up (a dropped connection, a busy server). */
export const PART_ATTEMPTS = 3;

export interface UploadOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** Set when files go straight to Uploadcare. */
  uploadcarePublicKey?: string;
}

/** SVG logos always go through the site, whose upload checks their content for scripts. */
export function isSvgFile(file: Pick<File, 'name' | 'type'>): boolean {
  return file.type === 'image/svg+xml' || /\.svg$/i.test(file.name);
}

export function uploadBrandingFile(file: File, options: UploadOptions = {}): Promise<UploadedFile> {
  if (options.uploadcarePublicKey && !isSvgFile(file)) return uploadThroughUploadcare(file, options.uploadcarePublicKey, options);
  return file.size > UPLOAD_PART_BYTES && !isSvgFile(file) ? uploadInParts(file, options) : uploadToServerSolving(file, options);
}

/**
 * A single upload that meets a site-wide ceiling gets 428 with a challenge (api.md): solved in the
 * browser's worker (shared/challenge.ts), as api() does, and the file sent again with it.
 */
async function uploadToServerSolving(file: File, options: UploadOptions): Promise<UploadedFile> {
  let solved: string | undefined;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await uploadToServer(file, options, solved);
    } catch (error) {
      if (!(error instanceof ApiError) || !error.challenge || attempt >= CHALLENGE_ATTEMPTS) throw error;
      solved = await solveChallenge(error.challenge);
    }
  }
}

/** The answer of POST /api/upload, read as api() reads answers: the server's `error`, else "status: text". */
export function uploadResultFrom(status: number, statusText: string, text: string): UploadedFile {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (status >= 200 && status < 300) {
    if (isUploadedFile(parsed)) return parsed;
    throw new ApiError('The upload answer was not understood', status);
  }
  const body = parsed as { error?: unknown; fields?: Record<string, string> } | undefined;
  if (body && typeof body.error === 'string') {
    throw new ApiError(body.error, status, body.fields ?? {}, null, status === 428 ? challengeOf(body) : null);
  }
  throw new ApiError(`${status}: ${text || statusText}`, status);
}

function isUploadedFile(value: unknown): value is UploadedFile {
  const file = value as Partial<UploadedFile> | undefined;
  return (
    typeof file === 'object' &&
    file !== null &&
    typeof file.filename === 'string' &&
    typeof file.originalName === 'string' &&
    typeof file.fileSize === 'number' &&
    typeof file.mimeType === 'string'
  );
}

export function uploadToServer(file: File, { onProgress, signal }: UploadOptions = {}, solvedChallenge?: string): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', UPLOAD_URL);
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/json');
    if (solvedChallenge) request.setRequestHeader(CHALLENGE_HEADER, solvedChallenge);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      try {
        resolve(uploadResultFrom(request.status, request.statusText, request.responseText));
      } catch (error) {
        reject(error);
      }
    });
    request.addEventListener('error', () => reject(new ApiError('The upload could not reach the server', 0)));
    request.addEventListener('abort', () => reject(new DOMException('Upload cancelled', 'AbortError')));
    if (signal) {
      if (signal.aborted) return request.abort();
      signal.addEventListener('abort', () => request.abort(), { once: true });
    }
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}

interface UploadcareSignature {
  signature: string;
  expire: string;
}

/** Accepts `{signature, expire}` (or the Uploadcare option names) from the signature route. */
export function readSignature(answer: unknown): UploadcareSignature {
  const body = (answer ?? {}) as Record<string, unknown>;
  const signature = body.signature ?? body.secureSignature;
  const expire = body.expire ?? body.secureExpire;
  if (typeof signature !== 'string' || (typeof expire !== 'string' && typeof expire !== 'number')) {
    throw new ApiError('File uploads are not available right now', 503);
  }
  return { signature, expire: String(expire) };
}

async function uploadThroughUploadcare(file: File, publicKey: string, { onProgress, signal }: UploadOptions) {
  const { signature, expire } = readSignature(await api(UPLOADCARE_SIGNATURE_URL, { signal }));
  // Loaded only when Uploadcare is configured, so the default build does not carry it.
  const { uploadFile } = await import('@uploadcare/upload-client');
  const uploaded = await uploadFile(file, {
    publicKey,
    secureSignature: signature,
    secureExpire: expire,
    // Temporary until a booking claims it: the server stores it then, and Uploadcare deletes
    // the files of abandoned forms after 24 hours.
    store: false,
    fileName: file.name,
    contentType: file.type || undefined,
    signal,
    onProgress: (progress) => {
      if (progress.isComputable) onProgress?.(progress.value);
    },
  });
  const attached = await api<unknown>(UPLOADCARE_ATTACH_URL, { body: { uuid: uploaded.uuid }, signal });
  if (!isUploadedFile(attached)) throw new ApiError('The upload answer was not understood', 200);
  return attached;
}

/** One XMLHttpRequest (fetch reports no upload progress): resolves with the parsed answer. */
function send(method: string, url: string, body: Blob, onProgress: (loaded: number) => void, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    request.upload.addEventListener('progress', (event) => onProgress(event.loaded));
    request.addEventListener('load', () => {
      let parsed: unknown;
      try {
        parsed = request.responseText ? JSON.parse(request.responseText) : undefined;
      } catch {
        parsed = undefined;
      }
      if (request.status >= 200 && request.status < 300) return resolve(parsed);
      const answer = parsed as { error?: unknown; fields?: Record<string, string> } | undefined;
      reject(new ApiError(typeof answer?.error === 'string' ? answer.error : `${request.status}: ${request.statusText}`, request.status, answer?.fields ?? {}));
    });
    request.addEventListener('error', () => reject(new ApiError('The upload could not reach the server', 0)));
    request.addEventListener('abort', () => reject(new DOMException('Upload cancelled', 'AbortError')));
    if (signal) {
      if (signal.aborted) return request.abort();
      signal.addEventListener('abort', () => request.abort(), { once: true });
    }
    request.send(body);
  });
}

/** A part worth sending again: the connection dropped, or the server was busy or failed. */
const isRetryable = (error: unknown) => error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500);

/**
 * A large file in parts (api/routes/upload-parts.ts): open, send each part, complete. A part that
 * fails is sent again (up to PART_ATTEMPTS tries) without resending the parts already stored.
 * The progress counts stored parts plus the bytes of the part on its way, so a retried part
 * takes the bar back to what the server really holds.
 */
export async function uploadInParts(file: File, { onProgress, signal }: UploadOptions = {}): Promise<UploadedFile> {
  const opened = await api<{ uploadId: string; partSize: number; partCount: number }>(UPLOAD_PARTS_URL, {
    body: { name: file.name, size: file.size },
    signal,
  });
  const base = `${UPLOAD_PARTS_URL}/${encodeURIComponent(opened.uploadId)}`;
  let stored = 0;
  for (let index = 0; index < opened.partCount; index += 1) {
    const part = file.slice(index * opened.partSize, (index + 1) * opened.partSize);
    for (let attempt = 1; ; attempt += 1) {
      try {
        onProgress?.(stored / file.size);
        await send('PUT', `${base}/${index}`, part, (loaded) => onProgress?.((stored + Math.min(loaded, part.size)) / file.size), signal);
        break;
      } catch (error) {
        if (attempt >= PART_ATTEMPTS || !isRetryable(error)) throw error;
      }
    }
    stored += part.size;
    onProgress?.(stored / file.size);
  }
  const completed = await api<unknown>(`${base}/complete`, { body: {}, signal });
  if (!isUploadedFile(completed)) throw new ApiError('The upload answer was not understood', 200);
  return completed;
}
