import { inflateSync } from 'node:zlib';
import { INTER_BOLD_WOFF, INTER_REGULAR_WOFF } from './pdf-fonts.data.ts';

/**
 * A WOFF 1.0 font as the TrueType file it wraps (W3C WOFF 1.0, section 5): each table inflated
 * when stored compressed, laid out again four-byte aligned behind a fresh table directory.
 * pdfkit's font engine subsets plain TrueType correctly, but not a WOFF's composite glyphs.
 */
export function woffToTrueType(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('Not a WOFF 1.0 font');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const at = 44 + index * 20;
    const offset = woff.readUInt32BE(at + 4);
    const stored = woff.readUInt32BE(at + 8);
    const length = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + stored);
    return { tag: woff.toString('latin1', at, at + 4), checksum: woff.readUInt32BE(at + 16), data: stored < length ? inflateSync(raw) : raw };
  }).sort((a, b) => (a.tag < b.tag ? -1 : 1));
  const power = 2 ** Math.floor(Math.log2(count));
  const directory = Buffer.alloc(12 + 16 * count);
  directory.writeUInt32BE(flavor, 0);
  directory.writeUInt16BE(count, 4);
  directory.writeUInt16BE(power * 16, 6);
  directory.writeUInt16BE(Math.log2(power), 8);
  directory.writeUInt16BE(count * 16 - power * 16, 10);
  let offset = directory.length;
  const bodies = tables.map((table, index) => {
    const at = 12 + index * 16;
    directory.write(table.tag, at, 'latin1');
    directory.writeUInt32BE(table.checksum, at + 4);
    directory.writeUInt32BE(offset, at + 8);
    directory.writeUInt32BE(table.data.length, at + 12);
    const padded = Buffer.alloc((table.data.length + 3) & ~3);
    table.data.copy(padded);
    offset += padded.length;
    return padded;
  });
  return Buffer.concat([directory, ...bodies]);
}

let fonts: { regular: Buffer; bold: Buffer } | undefined;

/** The documents' two faces as TrueType, unpacked once per instance. */
export function pdfFonts(): { regular: Buffer; bold: Buffer } {
  fonts ??= {
    regular: woffToTrueType(Buffer.from(INTER_REGULAR_WOFF, 'base64')),
    bold: woffToTrueType(Buffer.from(INTER_BOLD_WOFF, 'base64')),
  };
  return fonts;
}
