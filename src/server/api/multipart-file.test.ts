import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileTooLargeError, MalformedMultipartError, multipartBoundary, receiveMultipartFile } from './multipart-file.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'cp-multipart-'));
let n = 0;
const target = () => path.join(dir, `staged-${(n += 1)}`);

/** A form as the browser encodes it, and its boundary. */
async function encode(form: FormData): Promise<{ bytes: Uint8Array; boundary: string }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { bytes: new Uint8Array(await request.arrayBuffer()), boundary: multipartBoundary(request.headers.get('content-type')!)! };
}

/** The bytes in chunks of `size`, counting how many were pulled. */
function chunked(bytes: Uint8Array, size: number) {
  const pulled = { bytes: 0 };
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const chunk = bytes.subarray(offset, offset + size);
      offset += chunk.length;
      pulled.bytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled };
}

describe('receiveMultipartFile', () => {
  it('writes the file part to disk whatever the chunk boundaries, skipping other fields', async () => {
    const content = new Uint8Array(5000).map((_, index) => (index * 7) % 256);
    const form = new FormData();
    form.set('note', 'before the file');
    form.set('file', new File([content], 'Brand Logo.png', { type: 'image/png' }));
    form.set('after', 'x');
    const { bytes, boundary } = await encode(form);
    for (const size of [1, 3, 17, 4096, bytes.length]) {
      const at = target();
      const file = await receiveMultipartFile(chunked(bytes, size).stream, boundary, { field: 'file', maxBytes: 10_000, target: at, headBytes: 8 });
      expect(file).toMatchObject({ path: at, name: 'Brand Logo.png', size: 5000 });
      expect(Array.from(file!.head)).toEqual(Array.from(content.subarray(0, 8)));
      expect(Buffer.from(readFileSync(at)).equals(Buffer.from(content))).toBe(true);
    }
  });

  it('stops reading once the file passes the limit, and leaves no partial file', async () => {
    const form = new FormData();
    form.set('file', new File([new Uint8Array(3 * 1024 * 1024)], 'big.png'));
    const { bytes, boundary } = await encode(form);
    const { stream, pulled } = chunked(bytes, 64 * 1024);
    const at = target();
    await expect(receiveMultipartFile(stream, boundary, { field: 'file', maxBytes: 1024 * 1024, target: at, headBytes: 8 })).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    // The limit plus a chunk or two read ahead, not the 3 MB sent.
    expect(pulled.bytes).toBeLessThan(1.5 * 1024 * 1024);
    expect(existsSync(at)).toBe(false);
  });

  it('answers null for a form without the file, and refuses a body that is not multipart', async () => {
    const form = new FormData();
    form.set('file', 'text, not a file');
    const { bytes, boundary } = await encode(form);
    expect(await receiveMultipartFile(chunked(bytes, 10).stream, boundary, { field: 'file', maxBytes: 100, target: target(), headBytes: 8 })).toBeNull();
    const junk = new TextEncoder().encode('this is not multipart at all');
    await expect(receiveMultipartFile(chunked(junk, 5).stream, 'abc', { field: 'file', maxBytes: 100, target: target(), headBytes: 8 })).rejects.toBeInstanceOf(
      MalformedMultipartError,
    );
  });
});
