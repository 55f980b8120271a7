import { MAX_UPLOAD_BYTES } from './booking-limits.ts';

// Files above one part travel in parts (api/routes/upload-parts.ts), because a Netlify function
// takes at most 6 MB per request and a binary body reaches it base64-encoded (4/3 of its size):
// a 4 MiB part is about 5.6 MB there, with room left for the headers.

/** Bytes of file in each part but the last. */
export const UPLOAD_PART_BYTES = 4 * 1024 * 1024;

/** How many parts a file of `size` bytes takes (a 10 MB file: 3). */
export function uploadPartCount(size: number, partSize = UPLOAD_PART_BYTES): number {
  return Math.max(1, Math.ceil(size / partSize));
}

/** The exact length of part `index` of a file of `size` bytes. */
export function uploadPartLength(size: number, index: number, partSize = UPLOAD_PART_BYTES): number {
  return Math.min(partSize, size - index * partSize);
}

/** The largest file the parts route accepts: the same limit as a single upload. */
export const MAX_PARTED_UPLOAD_BYTES = MAX_UPLOAD_BYTES;
