/**
 * Photos are scaled in the browser before upload (admin-dashboard.md §5; docs/ARCHITECTURE.md):
 * a Netlify function takes about 4.5 MB of file, phone cameras make more. Drawing onto a canvas
 * and re-encoding as JPEG also drops the EXIF block, GPS location included.
 */
export const PHOTO_MAX_SIDE = 2560;
export const THUMBNAIL_MAX_SIDE = 480;
const PHOTO_QUALITY = 0.85;
const THUMBNAIL_QUALITY = 0.8;

/** The size that fits within maxSide on the long side, keeping the aspect; never enlarged. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** 'IMG_0042.HEIC' → 'IMG_0042.jpg': the name the re-encoded photo is sent with. */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '') || 'photo';
  return `${base}.jpg`;
}

async function encode(bitmap: ImageBitmap, maxSide: number, quality: number): Promise<Blob> {
  const { width, height } = fitWithin(bitmap.width, bitmap.height, maxSide);
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    draw(canvas.getContext('2d'), bitmap, width, height);
    return canvas.convertToBlob({ type: 'image/jpeg', quality });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  draw(canvas.getContext('2d'), bitmap, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('Could not encode the photo'))), 'image/jpeg', quality),
  );
}

function draw(
  context: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null,
  bitmap: ImageBitmap,
  width: number,
  height: number,
) {
  if (!context) throw new Error('Canvas is not available');
  // JPEG has no transparency: a transparent PNG would otherwise turn black.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0, width, height);
}

/** The photo to upload and its thumbnail; rejects when the browser cannot decode the file as an image. */
export async function preparePhoto(file: File): Promise<{ photo: File; thumbnail: File }> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const name = jpegName(file.name);
    const [photo, thumbnail] = await Promise.all([
      encode(bitmap, PHOTO_MAX_SIDE, PHOTO_QUALITY),
      encode(bitmap, THUMBNAIL_MAX_SIDE, THUMBNAIL_QUALITY),
    ]);
    return {
      photo: new File([photo], name, { type: 'image/jpeg' }),
      thumbnail: new File([thumbnail], name.replace(/\.jpg$/, '-thumb.jpg'), { type: 'image/jpeg' }),
    };
  } finally {
    bitmap.close();
  }
}
