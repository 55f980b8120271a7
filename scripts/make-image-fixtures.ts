// Writes tests/fixtures/images/: small photos carrying the metadata a phone or camera writes
// (GPS position, time, make and model, XMP, text chunks), a truncated JPEG and a PNG that is
// small on disk but 20 000 x 20 000 pixels. The upload tests read them back after the server
// has stored them. Run with `npx tsx scripts/make-image-fixtures.ts`; the output is committed.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

const OUT = path.resolve('tests/fixtures/images');
/** Where the fixtures say they were taken: Piccadilly Gardens, Manchester. */
const GPS = { GPSLatitudeRef: 'N', GPSLatitude: '53/1 28/1 5091/100', GPSLongitudeRef: 'W', GPSLongitude: '2/1 14/1 1284/100' };
const XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="53,28.8485N" exif:GPSLongitude="2,14.2140W"/>' +
  '</rdf:RDF></x:xmpmeta>';

/** A picture with some detail, so encoders have something to keep. */
function picture(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 90 } } }).composite([
    { input: Buffer.from(`<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#f4e04d"/></svg>`) },
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** Inserts chunks after a PNG's IHDR. */
function withPngChunks(png: Buffer, chunks: Buffer[]): Buffer {
  const ihdrEnd = 8 + 8 + png.readUInt32BE(8) + 4;
  return Buffer.concat([png.subarray(0, ihdrEnd), ...chunks, png.subarray(ihdrEnd)]);
}

/** The TIFF block of a JPEG's Exif APP1 segment. */
function exifTiff(jpeg: Buffer): Buffer {
  let offset = 2;
  while (offset < jpeg.length) {
    const marker = jpeg[offset + 1]!;
    const length = jpeg.readUInt16BE(offset + 2);
    if (marker === 0xe1 && jpeg.subarray(offset + 4, offset + 10).toString('latin1') === 'Exif\0\0') {
      return jpeg.subarray(offset + 10, offset + 2 + length);
    }
    offset += 2 + length;
  }
  throw new Error('no Exif segment');
}

/** A one-bit, one-colour PNG of width x height: a few kilobytes that decode to gigabytes. */
function hugePng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

await mkdir(OUT, { recursive: true });
const exif = {
  IFD0: { Make: 'Canon', Model: 'Canon EOS R6', DateTime: '2026:11:23 08:58:00' },
  IFD3: GPS,
};
const cameraJpeg = await picture(640, 480).jpeg({ quality: 80 }).withExif(exif).toBuffer();
await writeFile(path.join(OUT, 'camera-gps.jpg'), cameraJpeg);

// An iPhone photo converted from HEIC: taken sideways (orientation 6), Apple's make, GPS, XMP.
const iphone = await picture(480, 360)
  .jpeg({ quality: 80 })
  .withMetadata({ orientation: 6 })
  .withExifMerge({ IFD0: { Make: 'Apple', Model: 'iPhone 15 Pro', Software: '18.1' }, IFD3: GPS })
  .withXmp(XMP)
  .toBuffer();
await writeFile(path.join(OUT, 'iphone-gps.jpg'), iphone);

// One junk byte after the Exif segment, before the next marker.
const app1End = 2 + 2 + cameraJpeg.readUInt16BE(4);
await writeFile(path.join(OUT, 'junk-after-exif.jpg'), Buffer.concat([cameraJpeg.subarray(0, app1End), Buffer.from([0x00]), cameraJpeg.subarray(app1End)]));

await writeFile(path.join(OUT, 'truncated.jpg'), cameraJpeg.subarray(0, Math.floor(cameraJpeg.length * 0.6)));

const plainPng = await picture(320, 240).png().toBuffer();
const tiff = exifTiff(cameraJpeg);
await writeFile(
  path.join(OUT, 'exif-text.png'),
  withPngChunks(plainPng, [
    chunk('eXIf', tiff),
    chunk('tEXt', Buffer.from('Comment\0GPSLatitude 53.4808 GPSLongitude -2.2369', 'latin1')),
    chunk('iTXt', Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${XMP}`, 'utf8')),
  ]),
);

await writeFile(path.join(OUT, 'exif-xmp.webp'), await picture(320, 240).webp({ quality: 70 }).withExif(exif).withXmp(XMP).toBuffer());

await writeFile(path.join(OUT, 'huge-20000.png'), hugePng(20_000, 20_000));
console.log(`Fixtures written to ${OUT}`);
