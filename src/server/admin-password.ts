import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
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

/**
 * scrypt at OWASP's minimum for password storage (N=2^17, r=8, p=1: 128 MiB and a few hundred
 * milliseconds per check), so a leaked hash is slow to attack. Stored as
 * `scrypt$N$r$p$saltBase64url$hashBase64url`.
 */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...params, maxmem: 256 * params.N * params.r + 16 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function hashAdminPassword(password: string, params = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export function isAdminPasswordHash(value: string): boolean {
  return /^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/.test(value);
}

/** Constant-time comparison of a candidate with a stored hash; false for a malformed hash. */
export async function verifyAdminPassword(password: string, stored: string): Promise<boolean> {
  if (!isAdminPasswordHash(stored)) return false;
  const [, n, r, p, salt, hash] = stored.split('$') as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** What the API needs to check a sign-in: the stored hash, never the password itself. */
export interface AdminCredentials {
  passwordHash: string;
}

/**
 * ADMIN_PASSWORD_HASH when set; otherwise ADMIN_PASSWORD (or the generated local password)
 * hashed once at start, so the clear password is not kept beyond this call.
 */
export async function resolveAdminCredentials(options: {
  passwordHash?: string;
  password?: string;
}): Promise<AdminCredentials | null> {
  if (options.passwordHash) {
    if (!isAdminPasswordHash(options.passwordHash)) {
      throw new Error('ADMIN_PASSWORD_HASH is not a hash printed by `npm run admin:hash`');
    }
    return { passwordHash: options.passwordHash };
  }
  if (options.password) return { passwordHash: await hashAdminPassword(options.password) };
  return null;
}
