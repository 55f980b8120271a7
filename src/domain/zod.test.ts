import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Folders whose modules the browser may load. */
const BROWSER_FOLDERS = ['client', 'content', 'domain', 'islands'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('zod in the browser', () => {
  it('is imported through src/domain/zod.ts, so no page trips its Content Security Policy', () => {
    const direct = BROWSER_FOLDERS.flatMap((folder) => sourceFiles(path.join(src, folder)))
      .filter((file) => !file.endsWith(path.join('domain', 'zod.ts')))
      .filter((file) => /from ['"]zod(\/[^'"]*)?['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(src, file));
    expect(direct).toEqual([]);
  });
});
