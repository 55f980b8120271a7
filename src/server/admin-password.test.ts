import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveLocalAdminPassword } from './admin-password.ts';

describe('local admin password', () => {
  it('uses ADMIN_PASSWORD when set and writes nothing', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cp-admin-'));
    const printed: string[] = [];
    expect(await resolveLocalAdminPassword('chosen', dir, (line) => printed.push(line))).toBe('chosen');
    expect(printed).toEqual([]);
  });

  it('generates one on first start, keeps it, and prints it only once', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cp-admin-'));
    const printed: string[] = [];
    const first = await resolveLocalAdminPassword(undefined, dir, (line) => printed.push(line));
    const second = await resolveLocalAdminPassword(undefined, dir, (line) => printed.push(line));
    expect(first).toHaveLength(16);
    expect(second).toBe(first);
    expect(readFileSync(path.join(dir, 'admin-password'), 'utf8').trim()).toBe(first);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain(first);
  });
});
