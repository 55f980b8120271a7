import { describe, expect, it } from 'vitest';
import { stripJpegMetadata } from './image-metadata.ts';

const segment = (marker: number, payload: string) => {
  const body = new TextEncoder().encode(payload);
  return [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
};
const SCAN = [0xff, 0xda, 0x00, 0x04, 0x01, 0x02, 0x11, 0x22, 0xff, 0xd9];

describe('stripJpegMetadata', () => {
  it('drops Exif (with its GPS), XMP, IPTC and comments, and keeps JFIF and the picture', () => {
    const jpeg = new Uint8Array([
      0xff, 0xd8,
      ...segment(0xe0, 'JFIF\0'),
      ...segment(0xe1, 'Exif\0\0GPS 53.4823N 2.2389W'),
      ...segment(0xe1, 'http://ns.adobe.com/xap/1.0/'),
      ...segment(0xed, 'Photoshop 3.0'),
      ...segment(0xfe, 'taken on Market Street'),
      ...SCAN,
    ]);
    const stripped = stripJpegMetadata(jpeg);
    const text = new TextDecoder('latin1').decode(stripped);
    expect(text).not.toContain('GPS');
    expect(text).not.toContain('adobe');
    expect(text).not.toContain('Market Street');
    expect(text).toContain('JFIF');
    expect([...stripped.subarray(-SCAN.length)]).toEqual(SCAN);
  });

  it.each([
    ['a PNG', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['a truncated JPEG', new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0x40, 0x00, 0x01])],
  ])('leaves %s as it is', (_name, bytes) => {
    expect(stripJpegMetadata(bytes)).toBe(bytes);
  });
});
