import path from 'node:path';
import { constants as fsConstants } from 'node:fs';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Env } from '../env.ts';

/**
 * Where uploaded files live (conventions: providers at the edge). Locally a folder under
 * DATA_DIR; on Netlify, Netlify Blobs (functions have no lasting disk). Names are the random
 * names the upload route chooses, one path segment each.
 *
 * Files bigger than a Netlify function accepts go to Uploadcare instead, straight from the
 * browser; those never pass through this store (see providers/uploadcare.ts, docs/ARCHITECTURE.md).
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
      await store.set(name, buffer, { metadata: { type } });
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
