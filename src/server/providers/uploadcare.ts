import { createHmac } from 'node:crypto';
import type { Env } from '../env.ts';

/**
 * Uploadcare, the production path for customers' files: a Netlify function takes at
 * most ~4.5 MB of file, so on Netlify the browser uploads straight to Uploadcare with a signature
 * from this server, then names the file's UUID to the server, which asks Uploadcare's REST API
 * what the file really is before accepting it. The browser uploads without storing; the server
 * stores a file when a booking claims it, so Uploadcare keeps booked files for good and deletes
 * the rest after 24 hours, whatever the project's auto-store setting.
 */
export interface UploadcareFile {
  uuid: string;
  size: number;
  /** Uploadcare's own detection from the content, not the browser's claim. */
  mimeType: string;
  originalFilename: string;
  isReady: boolean;
  isRemoved: boolean;
}

export interface UploadSignature {
  publicKey: string;
  signature: string;
  /** Unix time in seconds, as Uploadcare's upload API expects. */
  expire: number;
}

export interface Uploadcare {
  /** The file's facts, or null when Uploadcare does not know the UUID. */
  fileInfo(uuid: string): Promise<UploadcareFile | null>;
  /**
   * Stores the file for good (PUT /files/{uuid}/storage/; storing twice is harmless). Its facts
   * afterwards, or null when Uploadcare does not know the UUID (never stored, so deleted).
   */
  storeFile(uuid: string): Promise<UploadcareFile | null>;
  signUpload(now: Date): UploadSignature;
}

/** Uploadcare could not be asked (network, timeout, an unexpected answer). */
export class UploadcareUnavailableError extends Error {
  override name = 'UploadcareUnavailableError';
}

export const UPLOAD_SIGNATURE_TTL_SECONDS = 30 * 60;
const REQUEST_TIMEOUT_MS = 5_000;

export const isUploadcareConfigured = (env: Env) =>
  Boolean(env.PUBLIC_UPLOADCARE_PUBLIC_KEY && env.UPLOADCARE_SECRET_KEY);

/** Null when the keys are unset: the routes then answer 503 and files go through /api/upload. */
export function createUploadcare(env: Env, fetchImpl: typeof fetch = fetch): Uploadcare | null {
  const publicKey = env.PUBLIC_UPLOADCARE_PUBLIC_KEY;
  const secretKey = env.UPLOADCARE_SECRET_KEY;
  if (!publicKey || !secretKey) return null;
  const apiUrl = env.UPLOADCARE_API_URL.replace(/\/+$/, '');

  /** One REST call: the file's facts from the answer, null on 404. */
  async function fileRequest(method: 'GET' | 'PUT', path: string, uuid: string): Promise<UploadcareFile | null> {
    let response: Response;
    try {
      response = await fetchImpl(`${apiUrl}${path}`, {
        method,
        headers: {
          Accept: 'application/vnd.uploadcare-v0.7+json',
          Authorization: `Uploadcare.Simple ${publicKey}:${secretKey}`,
        },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new UploadcareUnavailableError(`Uploadcare could not be reached: ${(error as Error).message}`);
    }
    if (response.status === 404) return null;
    if (!response.ok) throw new UploadcareUnavailableError(`Uploadcare answered ${method} ${path} with ${response.status}`);
    const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body || typeof body !== 'object') throw new UploadcareUnavailableError('Uploadcare answered without file facts');
    // Only Uploadcare's own "ready" counts: until then the size and type may be missing or change.
    const isReady = body.is_ready === true;
    if (isReady && (typeof body.size !== 'number' || typeof body.mime_type !== 'string')) {
      throw new UploadcareUnavailableError('Uploadcare answered without a size and a type');
    }
    return {
      uuid: String(body.uuid ?? uuid),
      size: typeof body.size === 'number' ? body.size : 0,
      mimeType: typeof body.mime_type === 'string' ? body.mime_type.toLowerCase() : '',
      originalFilename: typeof body.original_filename === 'string' ? body.original_filename : '',
      isReady,
      isRemoved: body.datetime_removed != null,
    };
  }

  return {
    fileInfo: (uuid) => fileRequest('GET', `/files/${encodeURIComponent(uuid)}/`, uuid),
    storeFile: (uuid) => fileRequest('PUT', `/files/${encodeURIComponent(uuid)}/storage/`, uuid),

    signUpload(now) {
      const expire = Math.floor(now.getTime() / 1000) + UPLOAD_SIGNATURE_TTL_SECONDS;
      const signature = createHmac('sha256', secretKey).update(String(expire)).digest('hex');
      return { publicKey, signature, expire };
    },
  };
}
