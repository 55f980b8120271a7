import { open, rm, type FileHandle } from 'node:fs/promises';

/**
 * Reads one file out of a multipart/form-data body while the body arrives, writing it straight
 * to disk: a 10 MB upload never sits in memory whole (the platform's `formData()` keeps the body,
 * the file and a copy of its bytes, which for a dozen parallel uploads is hundreds of MB).
 * Only the first bytes are kept, to judge the file's type. The size limit is enforced as bytes
 * come: past it the reading stops and the partial file is removed.
 *
 * Only what the upload form sends is supported: parts with a Content-Disposition, the file in
 * the part named `field` (the first one that carries a filename); other parts are skipped.
 */
export interface ReceivedFile {
  /** Where the file's bytes now are (the caller moves or removes it). */
  path: string;
  /** The filename the browser sent, as it sent it. */
  name: string;
  size: number;
  /** The file's first bytes (up to `headBytes`). */
  head: Uint8Array;
}

export class MalformedMultipartError extends Error {}
export class FileTooLargeError extends Error {}

export interface ReceiveOptions {
  field: string;
  maxBytes: number;
  /** A path that does not exist yet: the file is created there. */
  target: string;
  headBytes: number;
}

/** Part headers longer than this are not a browser's. */
const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

export function multipartBoundary(contentType: string | undefined): string | null {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]!) : null;
}

/** The file, or null when the body has no such file part. */
export async function receiveMultipartFile(
  body: ReadableStream<Uint8Array> | null,
  boundary: string,
  options: ReceiveOptions,
): Promise<ReceivedFile | null> {
  if (!body) throw new MalformedMultipartError('No body');
  // Every delimiter is CRLF "--" boundary; the body's first one has no CRLF before it, so one is
  // put in front of the body.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = body.getReader();
  let pending: Buffer = CRLF;
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let sink: FileSink | null = null;
  let received: ReceivedFile | null = null;
  let ended = false;

  try {
    while (state !== 'done') {
      if (state === 'preamble' || state === 'body') {
        const at = pending.indexOf(delimiter);
        if (at >= 0) {
          if (state === 'body' && sink) await sink.write(pending.subarray(0, at));
          pending = pending.subarray(at + delimiter.length);
          if (state === 'body' && sink) {
            received = await sink.close();
            sink = null;
          }
          state = 'after-delimiter';
          continue;
        }
        // Keep what could be the start of a delimiter split across chunks.
        const safe = Math.max(0, pending.length - (delimiter.length - 1));
        if (state === 'body' && sink && safe > 0) await sink.write(pending.subarray(0, safe));
        pending = pending.subarray(safe);
      } else if (state === 'after-delimiter') {
        if (pending.length >= 2) {
          if (pending[0] === 0x2d && pending[1] === 0x2d) {
            state = 'done';
            continue;
          }
          if (!pending.subarray(0, 2).equals(CRLF)) throw new MalformedMultipartError('Bad delimiter');
          pending = pending.subarray(2);
          state = 'headers';
          continue;
        }
      } else if (state === 'headers') {
        const at = pending.indexOf(HEADER_END);
        if (at >= 0) {
          const part = parsePartHeaders(pending.subarray(0, at).toString('utf8'));
          pending = pending.subarray(at + HEADER_END.length);
          if (!received && part.name === options.field && part.filename !== null) {
            sink = await FileSink.open(options, part.filename);
          }
          state = 'body';
          continue;
        }
        if (pending.length > MAX_HEADER_BYTES) throw new MalformedMultipartError('Part headers too long');
      }
      if (ended) throw new MalformedMultipartError('The body ended inside the form');
      const { done, value } = await reader.read();
      if (done) ended = true;
      else pending = pending.length ? Buffer.concat([pending, value]) : Buffer.from(value);
    }
    return received;
  } catch (error) {
    await sink?.discard();
    if (received) await rm(received.path, { force: true });
    throw error;
  } finally {
    // Whatever the client still sends is not read (a 413 closes the connection).
    reader.cancel().catch(() => undefined);
  }
}

function parsePartHeaders(text: string): { name: string | null; filename: string | null } {
  const disposition = text.split('\r\n').find((line) => /^content-disposition\s*:/i.test(line));
  if (!disposition) throw new MalformedMultipartError('A part without Content-Disposition');
  const quoted = (attribute: string) => new RegExp(`;\\s*${attribute}="([^"]*)"`, 'i').exec(disposition)?.[1] ?? null;
  const extended = /;\s*filename\*=utf-8''([^;\s]*)/i.exec(disposition)?.[1];
  let filename = quoted('filename');
  if (extended !== undefined) {
    try {
      filename = decodeURIComponent(extended);
    } catch {
      throw new MalformedMultipartError('Bad filename*');
    }
  }
  return { name: quoted('name'), filename };
}

/** The file being written: counted, its first bytes kept. */
class FileSink {
  private size = 0;
  private readonly head: Buffer[] = [];
  private headLength = 0;

  private constructor(
    private readonly handle: FileHandle,
    private readonly options: ReceiveOptions,
    private readonly name: string,
  ) {}

  static async open(options: ReceiveOptions, name: string): Promise<FileSink> {
    return new FileSink(await open(options.target, 'wx'), options, name);
  }

  async write(bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    this.size += bytes.length;
    if (this.size > this.options.maxBytes) throw new FileTooLargeError('File too large');
    if (this.headLength < this.options.headBytes) {
      const take = bytes.subarray(0, this.options.headBytes - this.headLength);
      this.head.push(Buffer.from(take));
      this.headLength += take.length;
    }
    await this.handle.write(bytes);
  }

  async close(): Promise<ReceivedFile> {
    await this.handle.close();
    return { path: this.options.target, name: this.name, size: this.size, head: new Uint8Array(Buffer.concat(this.head)) };
  }

  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.options.target, { force: true });
  }
}
