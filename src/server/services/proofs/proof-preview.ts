import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../app/deps.ts';
import type { PdfPreview } from '../files/pdf-preview.ts';
import type { AllowedFileType } from '../files/file-type.ts';

// A PDF proof's first page as an image (issue: phone browsers show an embedded PDF as an empty
// box). Made once, when staff upload the proof; stored beside the proof's file under a random
// name and served only through the proof's own guards (GET /api/proofs/{id}/preview).

/** The access-checked address of a proof's preview image. */
export const proofPreviewUrl = (proofId: number) => `/api/proofs/${proofId}/preview`;

/** A stored preview's type, by the extension storePdfPreview gave its name. */
export const previewMimeType = (fileName: string) => (fileName.endsWith('.jpg') ? 'image/jpeg' : 'image/png');

export interface StoredPreview extends PdfPreview {
  fileName: string;
}

/**
 * Renders and stores the preview of a PDF proof; null for other types and for a PDF the renderer
 * cannot draw (logged for staff): such a proof still uploads and shows its link, never a 500.
 */
export async function storePdfPreview(
  deps: Pick<AppDeps, 'files' | 'log' | 'pdfPreviews'>,
  bookingId: number,
  bytes: Uint8Array,
  type: AllowedFileType,
  origin: string,
): Promise<StoredPreview | null> {
  if (type.mimeType !== 'application/pdf') return null;
  let preview: PdfPreview;
  try {
    // In this process locally; on Netlify by the proof-preview function (providers/pdf-previews.ts).
    preview = await deps.pdfPreviews.render(bytes, origin);
  } catch (error) {
    deps.log.warn('A PDF proof was stored without a preview: its first page could not be drawn', {
      bookingId,
      error: error instanceof Error ? error.message : String(error),
    });
    return null;
  }
  const fileName = `proof-preview-${randomUUID()}.${preview.mimeType === 'image/jpeg' ? 'jpg' : 'png'}`;
  await deps.files.put(fileName, preview.bytes, preview.mimeType);
  return { ...preview, fileName };
}
