/**
 * Removes what a JPEG says about where and how it was taken: the APP1 (Exif, with GPS, and XMP),
 * APP13 (IPTC) and comment segments. The crew page re-encodes photos on a canvas, which already
 * drops them; the server does it again so a photo sent by any other means never shows a customer
 * its place. The picture itself (and APP0/JFIF, APP2/ICC colour, APP14/Adobe) is kept byte for byte.
 * Anything that does not parse as a JPEG is returned unchanged.
 */
const DROPPED_MARKERS = new Set([0xe1, 0xed, 0xfe]);

export function stripJpegMetadata(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return bytes;
  const kept: Uint8Array[] = [bytes.subarray(0, 2)];
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return bytes;
    const marker = bytes[offset + 1]!;
    // Start of scan: the compressed picture and everything after it stay as they are.
    if (marker === 0xda) {
      kept.push(bytes.subarray(offset));
      return concat(kept);
    }
    const length = (bytes[offset + 2]! << 8) | bytes[offset + 3]!;
    if (length < 2 || offset + 2 + length > bytes.length) return bytes;
    if (!DROPPED_MARKERS.has(marker)) kept.push(bytes.subarray(offset, offset + 2 + length));
    offset += 2 + length;
  }
  return bytes;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
