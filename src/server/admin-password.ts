import { randomBytes } from 'node:crypto';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * The admin password for local runs: ADMIN_PASSWORD when set; otherwise one generated on
 * first start, kept under DATA_DIR, and printed once so the person running it can sign in.
 */
export async function resolveLocalAdminPassword(
  configured: string | undefined,
  dataDir: string,
  print: (line: string) => void = console.log,
): Promise<string> {
  if (configured) return configured;
  const file = path.resolve(dataDir, 'admin-password');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const password = randomBytes(12).toString('base64url');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${password}\n`, { mode: 0o600 });
    print(`\n  Admin password (generated, kept in ${file}): ${password}\n`);
    return password;
  }
}
