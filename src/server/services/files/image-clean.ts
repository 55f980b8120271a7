import { readFile, writeFile } from 'node:fs/promises';
import type { Sharp } from 'sharp';

// sharp (libvips) is loaded on the first image, not when the server starts: most requests never
// touch an image, and the local server's resident memory has a budget (docs/PERFORMANCE.md).
let sharpLibrary: Promise<typeof import('sharp').default> | undefined;
function loadSharp() {
  sharpLibrary ??= import('sharp').then(
    (module) => module.default,
    (error: unknown) => {
      sharpLibrary = undefined;
      throw error;
    },
  );
  return sharpLibrary;
}
import { AppError } from '../../app/errors.ts';

// Every image a customer or the public can fetch is decoded and encoded again here, so nothing
// the camera wrote beside the pixels (EXIF with GPS, XMP, PNG text chunks, WebP metadata,
// a thumbnail inside the EXIF) survives: the new file holds pixels only. A file the decoder
// cannot read whole (truncated, a junk byte where a marker should be) is refused, never stored
// as it came. The pixel count is read from the header and checked before anything is decoded,
// so a small file that would decode to gigabytes (a 20 000 x 20 000 PNG of one colour) costs
// nothing.

/** api.md "Abuse and availability": 50 megapixels at most, refused before decoding. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** The long side of a thumbnail the server makes (the admin's and the crew's photo lists). */
export const THUMBNAIL_LONG_SIDE = 480;

export const IMAGE_MESSAGES = {
  tooManyPixels: 'Image is too large. The maximum is 50 megapixels.',
  unreadable: 'This image could not be read. Please choose another file.',
} as const;

export type CleanImageType = 'image/jpeg' | 'image/png' | 'image/webp';

export interface CleanImage {
  bytes: Uint8Array<ArrayBuffer>;
  mimeType: CleanImageType;
  width: number;
  height: number;
}

/** The field an answer names for a refusal (`photo`, `file`). */
function refuse(status: 413 | 415, message: string, field: string): AppError {
  return new AppError(status, message, { [field]: message });
}

/** Reads only the header: the refusal for an image past the pixel limit, before any decoding. */
async function checkPixels(bytes: Uint8Array, field: string): Promise<void> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    const sharp = await loadSharp();
    ({ width, height } = await sharp(bytes, { limitInputPixels: false }).metadata());
  } catch {
    throw refuse(415, IMAGE_MESSAGES.unreadable, field);
  }
  if (!width || !height) throw refuse(415, IMAGE_MESSAGES.unreadable, field);
  if (width * height > MAX_IMAGE_PIXELS) throw refuse(413, IMAGE_MESSAGES.tooManyPixels, field);
}

async function pipeline(bytes: Uint8Array): Promise<Sharp> {
  const sharp = await loadSharp();
  // failOn 'truncated': a file that ends early stops the decode instead of being filled in grey;
  // a stray byte between segments (which libjpeg skips with a warning) does not.
  // rotate() with no angle applies the EXIF orientation to the pixels, since the tag goes.
  return sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' }).rotate();
}

async function encode(image: Sharp, mimeType: CleanImageType, field: string): Promise<CleanImage> {
  const formatted =
    mimeType === 'image/png' ? image.png() : mimeType === 'image/webp' ? image.webp({ quality: 85 }) : image.jpeg({ quality: 85 });
  try {
    const { data, info } = await formatted.toBuffer({ resolveWithObject: true });
    return { bytes: new Uint8Array(data), mimeType, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw refuse(413, IMAGE_MESSAGES.tooManyPixels, field);
    throw refuse(415, IMAGE_MESSAGES.unreadable, field);
  }
}

/** The image again in its own format, upright, with no metadata; 413/415 for what cannot be. */
export async function cleanImage(bytes: Uint8Array, mimeType: CleanImageType, field = 'file'): Promise<CleanImage> {
  await checkPixels(bytes, field);
  return encode(await pipeline(bytes), mimeType, field);
}

/** A JPEG thumbnail made from the image's own pixels (never one a client sent); the campaign report asks for a larger one. */
export async function makeThumbnail(bytes: Uint8Array, field = 'photo', longSide = THUMBNAIL_LONG_SIDE): Promise<CleanImage> {
  await checkPixels(bytes, field);
  const image = (await pipeline(bytes))
    .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
    // A PNG's transparency becomes white, not black, in a JPEG.
    .flatten({ background: '#ffffff' });
  return encode(image, 'image/jpeg', field);
}

/** An upload's type, when it is an image this module re-encodes. */
export function isCleanableImage(mimeType: string): mimeType is CleanImageType {
  return mimeType === 'image/jpeg' || mimeType === 'image/png' || mimeType === 'image/webp';
}

/**
 * Replaces a stored upload that is an image by its clean copy and returns the new size; other
 * files are left as they are. A file the decoder refuses is deleted before the refusal.
 */
export async function cleanStoredUpload(
  files: { get(name: string): Promise<{ body: Uint8Array } | null>; put(name: string, bytes: Uint8Array, type: string): Promise<void>; delete(name: string): Promise<void> },
  fileName: string,
  mimeType: string,
  size: number,
): Promise<number> {
  if (!isCleanableImage(mimeType)) return size;
  const stored = await files.get(fileName);
  if (!stored) return size;
  let cleaned: CleanImage;
  try {
    cleaned = await cleanImage(stored.body, mimeType, 'file');
  } catch (error) {
    await files.delete(fileName).catch(() => undefined);
    throw error;
  }
  // The store never overwrites a name: the clean copy replaces the file under the same one.
  await files.delete(fileName);
  await files.put(fileName, cleaned.bytes, mimeType);
  return cleaned.bytes.byteLength;
}

/** Replaces a staged upload (a local file) that is an image by its clean copy; returns its size. */
export async function cleanStagedUpload(stagedPath: string, mimeType: string, size: number): Promise<number> {
  if (!isCleanableImage(mimeType)) return size;
  const cleaned = await cleanImage(new Uint8Array(await readFile(stagedPath)), mimeType, 'file');
  await writeFile(stagedPath, cleaned.bytes);
  return cleaned.bytes.byteLength;
}
