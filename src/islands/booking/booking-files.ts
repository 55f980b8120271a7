import { ALLOWED_UPLOAD_EXTENSIONS, ALLOWED_UPLOAD_MIME_TYPES, MAX_UPLOAD_BYTES } from '../../domain/booking-limits.ts';
import type { UploadedFile } from '../../domain/booking-schema.ts';

// Brand files: what the picker accepts and the state of each upload.
// Part of the booking form's client state (booking-store.ts).

export const ACCEPT_ATTRIBUTE = [...ALLOWED_UPLOAD_EXTENSIONS.map((extension) => `.${extension}`), ...ALLOWED_UPLOAD_MIME_TYPES].join(',');

export interface FileLike {
  name: string;
  size: number;
  type: string;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * Why a chosen file cannot be uploaded, or null when it may be sent (§5 "Uploads"). The browser
 * judges by name and reported type; the server checks the content itself.
 */
export function fileRejectionReason(file: FileLike): string | null {
  const extension = extensionOf(file.name);
  const isAllowedExtension = (ALLOWED_UPLOAD_EXTENSIONS as readonly string[]).includes(extension);
  const isAllowedType = file.type === '' || (ALLOWED_UPLOAD_MIME_TYPES as readonly string[]).includes(file.type);
  if (!isAllowedExtension || !isAllowedType) {
    return `${file.name} was not added: only PNG, JPG, SVG and PDF files are accepted.`;
  }
  if (file.size > MAX_UPLOAD_BYTES) return `${file.name} was not added: files must be 10MB or smaller.`;
  if (file.size === 0) return `${file.name} was not added: the file is empty.`;
  return null;
}

export type UploadStatus = 'uploading' | 'done' | 'failed';

export interface UploadItem {
  id: number;
  name: string;
  size: number;
  status: UploadStatus;
  /** 0 to 1. */
  progress: number;
  result?: UploadedFile;
  error?: string;
  /**
   * Book again: a file of this earlier booking, attached as it is (nothing uploaded). The server
   * lets the new booking use it only for the browser that tracked that booking.
   */
  fromBooking?: number;
}

/** How an attached file's line reads under its name. */
export function uploadStatusText(item: UploadItem): string {
  if (item.fromBooking !== undefined) return `From booking #${item.fromBooking}`;
  if (item.status === 'done') return 'Uploaded';
  if (item.status === 'failed') return `Failed: ${item.error ?? 'upload failed'}`;
  return `Uploading… ${Math.round(item.progress * 100)}%`;
}

export function uploadedFilesOf(items: readonly UploadItem[]): UploadedFile[] {
  return items.flatMap((item) => (item.status === 'done' && item.result ? [item.result] : []));
}
