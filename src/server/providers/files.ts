import path from 'node:path';
import { constants as fsConstants, createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Env } from '../env.ts';

/**
 * Where uploaded files live (conventions: providers at the edge). Locally a folder under
 * DATA_DIR; on Netlify, Netlify Blobs (functions have no lasting disk). Names are the random
 * names the upload route chooses, one path segment each.
 *
 * A function call takes at most 6 MB, so files above one part arrive in parts (routes/upload-parts.ts),
 * each stored under its own name and then assembled into the file; reads stream, so a 10 MB file
 * goes out without being held whole. With Uploadcare configured, the browser sends files there
 * instead (providers/uploadcare.ts, docs/ARCHITECTURE.md).
 */
export interface StoredFile {
  body: Uint8Array;
  type: string;
  size: number;
}

export interface FileStore {
  /** Recorded in uploaded_files.storage. */
  readonly kind: 'disk' | 'blobs';
  put(name: string, bytes: Uint8Array, type: string): Promise<void>;
  /**
   * Stores the file at `source` (a staged upload) under `name` and removes it from `source`;
   * the disk store moves it without reading it into memory.
   */
  putFile(name: string, source: string, type: string): Promise<void>;
  get(name: string): Promise<StoredFile | null>;
  /** The file as a stream, with its type and size; null when there is none. */
  stream(name: string): Promise<{ body: ReadableStream<Uint8Array>; type: string; size: number } | null>;
  /** Stores (or replaces) one part of a file arriving in parts. */
  putPart(name: string, bytes: Uint8Array): Promise<void>;
  /** Joins the parts, in order, into the file `name`, then removes the parts. */
  assemble(name: string, parts: readonly string[], type: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** A stored name is one plain path segment: nothing can reach outside the store. */
export function assertStoredName(name: string): void {
  if (!/^[\w.-]{1,255}$/.test(name) || name.startsWith('.')) {
    throw new RangeError(`Not a stored file name: ${JSON.stringify(name)}`);
  }
}

const TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  webp: 'image/webp',
};

/** The disk store keeps no metadata beside the file: the type follows the extension the server chose. */
function typeOfName(name: string): string {
  return TYPE_BY_EXTENSION[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

export function createDiskFileStore(directory: string): FileStore {
  const root = path.resolve(directory);
  const pathOf = (name: string) => {
    assertStoredName(name);
    return path.join(root, name);
  };
  return {
    kind: 'disk',
    async put(name, bytes) {
      const target = pathOf(name);
      await mkdir(root, { recursive: true });
      // 'wx': a random name never overwrites an existing file.
      await writeFile(target, bytes, { flag: 'wx' });
    },
    async putFile(name, source) {
      const target = pathOf(name);
      await mkdir(root, { recursive: true });
      try {
        // A random name never overwrites an existing file.
        await copyFile(source, target, fsConstants.COPYFILE_EXCL | fsConstants.COPYFILE_FICLONE);
      } finally {
        await rm(source, { force: true });
      }
    },
    async get(name) {
      try {
        const body = new Uint8Array(await readFile(pathOf(name)));
        return { body, type: typeOfName(name), size: body.byteLength };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async stream(name) {
      const target = pathOf(name);
      try {
        const { size } = await stat(target);
        return { body: Readable.toWeb(createReadStream(target)) as ReadableStream<Uint8Array>, type: typeOfName(name), size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async putPart(name, bytes) {
      const target = pathOf(name);
      await mkdir(root, { recursive: true });
      // Written beside, then renamed: a part sent twice at once never leaves a torn file.
      const staging = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      await writeFile(staging, bytes);
      await rename(staging, target);
    },
    async assemble(name, parts) {
      const target = pathOf(name);
      const sources = parts.map(pathOf);
      await mkdir(root, { recursive: true });
      const output = createWriteStream(target, { flags: 'wx' });
      await pipeline(async function* () {
        for (const source of sources) yield* createReadStream(source);
      }, output);
      await Promise.all(sources.map((source) => rm(source, { force: true })));
    },
    async delete(name) {
      await rm(pathOf(name), { force: true });
    },
  };
}

/** Netlify Blobs, loaded only on Netlify (the function's context configures the store). */
export function createBlobsFileStore(storeName: string): FileStore {
  const open = async () => (await import('@netlify/blobs')).getStore(storeName);
  return {
    kind: 'blobs',
    async put(name, bytes, type) {
      assertStoredName(name);
      const store = await open();
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      await store.set(name, buffer, { metadata: { type, size: bytes.byteLength } });
    },
    async putFile(name, source, type) {
      // A Netlify function's request is a few MB at most, so reading the staged file back is small.
      try {
        await this.put(name, new Uint8Array(await readFile(source)), type);
      } finally {
        await rm(source, { force: true });
      }
    },
    async get(name) {
      assertStoredName(name);
      const store = await open();
      const found = await store.getWithMetadata(name, { type: 'arrayBuffer' });
      if (!found) return null;
      const body = new Uint8Array(found.data);
      const type = typeof found.metadata.type === 'string' ? found.metadata.type : typeOfName(name);
      return { body, type, size: body.byteLength };
    },
    async stream(name) {
      assertStoredName(name);
      const store = await open();
      const meta = await store.getMetadata(name);
      if (!meta) return null;
      const body = (await store.get(name, { type: 'stream' })) as ReadableStream<Uint8Array> | null;
      if (!body) return null;
      const type = typeof meta.metadata.type === 'string' ? meta.metadata.type : typeOfName(name);
      const size = typeof meta.metadata.size === 'number' ? meta.metadata.size : -1;
      return { body, type, size };
    },
    async putPart(name, bytes) {
      assertStoredName(name);
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      await (await open()).set(name, buffer);
    },
    async assemble(name, parts, type) {
      assertStoredName(name);
      parts.forEach(assertStoredName);
      const store = await open();
      // At most 10 MB in all: held once here (well inside a function's memory), stored as one blob.
      const chunks: Uint8Array[] = [];
      for (const part of parts) {
        const data = await store.get(part, { type: 'arrayBuffer' });
        if (!data) throw new Error(`Part ${part} is missing from the store`);
        chunks.push(new Uint8Array(data));
      }
      const whole = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
      let offset = 0;
      for (const chunk of chunks) {
        whole.set(chunk, offset);
        offset += chunk.byteLength;
      }
      await store.set(name, whole.buffer, { metadata: { type, size: whole.byteLength } });
      await Promise.all(parts.map((part) => store.delete(part)));
    },
    async delete(name) {
      assertStoredName(name);
      await (await open()).delete(name);
    },
  };
}

/** Customers' uploads: Netlify Blobs on Netlify, `${DATA_DIR}/uploads` everywhere else. */
export function createFileStore(env: Env, area = 'uploads'): FileStore {
  return env.NETLIFY ? createBlobsFileStore(area) : createDiskFileStore(path.join(env.DATA_DIR, area));
}
