import { cleanOneLine } from '../../../domain/text.ts';
import { MAX_IMAGE_PIXELS } from './image-clean.ts';

// Upload types are judged by the bytes, never by the file name or the browser's Content-Type
// (api.md, POST /api/upload): png, jpeg, pdf by their signatures, svg by its XML root. SVG is text
// that a browser can execute, so it is accepted only when it holds nothing active or external.

export type AllowedFileType =
  | { mimeType: 'image/png'; extension: 'png' }
  | { mimeType: 'image/jpeg'; extension: 'jpg' }
  | { mimeType: 'application/pdf'; extension: 'pdf' }
  | { mimeType: 'image/svg+xml'; extension: 'svg' };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const PDF_SIGNATURE = [...'%PDF-'].map((char) => char.charCodeAt(0));

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The text of an SVG file, or null when the bytes are not a UTF-8 document whose root is <svg>. */
export function svgText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  if (text.includes('\u0000')) return null;
  // Skip what may precede the root element: the XML declaration, comments, a doctype, whitespace.
  const prolog = /^(?:\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)*/i;
  const rest = text.slice(prolog.exec(text)?.[0].length ?? 0);
  return /^<svg[\s>/]/i.test(rest) ? text : null;
}

/** The file's real type, or null for anything other than png, jpeg, pdf and svg. */
export function detectFileType(bytes: Uint8Array): AllowedFileType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return { mimeType: 'image/png', extension: 'png' };
  if (startsWith(bytes, JPEG_SIGNATURE)) return { mimeType: 'image/jpeg', extension: 'jpg' };
  if (startsWith(bytes, PDF_SIGNATURE)) return { mimeType: 'application/pdf', extension: 'pdf' };
  if (svgText(bytes) !== null) return { mimeType: 'image/svg+xml', extension: 'svg' };
  return null;
}

/**
 * A whole file judged as every upload is: its type by content, and an SVG only when
 * svgRefusalReason finds nothing active or external in it.
 */
export function judgeFileContent(bytes: Uint8Array): { type: AllowedFileType } | { refused: 'unsupported' | 'unsafe-svg' | 'too-many-pixels' } {
  const type = detectFileType(bytes);
  if (!type) return { refused: 'unsupported' };
  if (type.mimeType === 'image/svg+xml') {
    const svg = svgText(bytes) ?? '';
    if (svgRefusalReason(svg) !== null) return { refused: 'unsafe-svg' };
    if ((svgDeclaredPixels(svg) ?? 0) > MAX_IMAGE_PIXELS) return { refused: 'too-many-pixels' };
  }
  return { type };
}

// CSS's absolute units in pixels; a relative one (em, %) leaves the size to the viewBox.
const CSS_PIXELS: Readonly<Record<string, number>> = { '': 1, px: 1, pt: 4 / 3, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, q: 96 / 101.6 };

/**
 * The pixels an SVG declares on its root (width × height, else the viewBox's), or null when it
 * declares none: a viewer would draw it at that size, so an SVG past 50 megapixels is refused
 * as any other image is (api.md "Storage").
 */
export function svgDeclaredPixels(svg: string): number | null {
  const root = /<(?:[\w.-]+:)?svg\b([^>]*)>/i.exec(svg)?.[1] ?? '';
  const attribute = (name: string) => new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(root)?.slice(1).find((value) => value !== undefined);
  const length = (value: string | undefined) => {
    const match = /^\s*([\d.]+(?:e[+-]?\d+)?)\s*([a-z]*)\s*$/i.exec(value ?? '');
    const unit = CSS_PIXELS[match?.[2]?.toLowerCase() ?? 'none'];
    return match && unit !== undefined ? Number(match[1]) * unit : null;
  };
  const width = length(attribute('width'));
  const height = length(attribute('height'));
  if (width !== null && height !== null) return width * height;
  const box = attribute('viewBox')?.trim().split(/[\s,]+/).map(Number);
  return box?.length === 4 && box.every(Number.isFinite) ? Math.abs(box[2]! * box[3]!) : null;
}

/**
 * A reference an SVG may keep: a fragment inside the same document ('#shape') or an embedded
 * raster image. SVG in a data: URL is refused too, since it could nest everything below.
 */
function isSafeReference(value: string): boolean {
  const reference = value.trim();
  return reference.startsWith('#') || /^data:image\/(?:png|jpe?g|gif|webp)[;,]/i.test(reference);
}

/**
 * Why an SVG is refused, or null when it holds no script, no event handler, no foreign content,
 * no entity declarations and no reference outside itself. Deliberately strict: refusing a
 * harmless logo is cheap (the customer can send a PNG), serving a hostile one is not.
 */
export function svgRefusalReason(svg: string): string | null {
  // Element names may carry any namespace prefix (<s:script xmlns:s="…svg">), so match with one.
  if (/<(?:[\w.-]+:)?script[\s>/]/i.test(svg)) return 'script element';
  if (/[\s"'/]on[a-z]+\s*=/i.test(svg)) return 'event handler attribute';
  if (/javascript\s*:/i.test(svg)) return 'javascript: URL';
  if (/<(?:[\w.-]+:)?foreignObject[\s>/]/i.test(svg)) return 'foreignObject element';
  if (/<(?:[\w.-]+:)?(?:iframe|embed|object|handler|listener)[\s>/]/i.test(svg)) return 'embedded document';
  if (/xmlns(?::[\w.-]+)?\s*=\s*["']\s*http:\/\/www\.w3\.org\/1999\/xhtml/i.test(svg)) return 'HTML content';
  // CSS escapes (\69mport, \75rl) can spell any of the checks below past them.
  for (const match of svg.matchAll(/<(?:[\w.-]+:)?style[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?style\s*>|style\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    if ((match[1] ?? match[2] ?? match[3] ?? '').includes('\\')) return 'escaped stylesheet';
  }
  // Entities can smuggle any of the above past these checks, or expand without bound.
  if (/<!ENTITY/i.test(svg)) return 'entity declaration';
  if (/<\?xml-stylesheet/i.test(svg)) return 'external stylesheet';
  if (/@import/i.test(svg)) return 'stylesheet import';
  // Animations (<set>, <animate>…) can rewrite a link or set an event handler after these checks ran.
  if (/attributeName\s*=\s*["']\s*(?:[\w-]+:)?href\s*["']/i.test(svg)) return 'animated link';
  if (/attributeName\s*=\s*["']\s*(?:[\w-]+:)?on[a-z]*\s*["']/i.test(svg)) return 'animated event handler';

  for (const match of svg.matchAll(/(?:^|[\s"'/])(?:[\w-]+:)?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*))/gi)) {
    const value = match[1] ?? match[2] ?? match[3] ?? '';
    if (!isSafeReference(value)) return 'external reference';
  }
  for (const match of svg.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi)) {
    const value = match[1] ?? match[2] ?? match[3] ?? '';
    if (!isSafeReference(value)) return 'external reference';
  }
  return null;
}

/** 'C:\\Users\\me\\Logo Final.png' → 'Logo Final.png'; control characters removed; at most 200 characters. */
export const ORIGINAL_NAME_MAX_LENGTH = 200;

export function sanitizeOriginalName(name: string, fallbackExtension: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // Controls are dropped outright here ("a\nb.pdf" is "ab.pdf"), then the shared one-line rule
  // removes bidi overrides ("invoice\u202Egnp.exe" would read as "invoiceexe.png") and zero-widths.
  const cleaned = cleanOneLine(base.replace(/[\u0000-\u001f\u007f-\u009f]/g, ''));
  const usable = cleaned === '' || cleaned === '.' || cleaned === '..' ? `upload.${fallbackExtension}` : cleaned;
  return [...usable].slice(0, ORIGINAL_NAME_MAX_LENGTH).join('');
}
