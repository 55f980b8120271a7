import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { webcrypto } from 'node:crypto';

/**
 * What one proof-of-work try costs natively, as an attacker pays it: a small C loop calling
 * OpenSSL's PKCS5_PBKDF2_HMAC (what a solver written for speed would use), compiled at bench time
 * with the machine's gcc. Returns microseconds per try of `iterations`, or null without a compiler.
 */
export function nativeMicrosecondsPerTry(iterations: number, tries = 400): number | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cp-pow-'));
  try {
    const source = path.join(dir, 'pow.c');
    writeFileSync(
      source,
      `#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv) {
  int iterations = atoi(argv[1]), tries = atoi(argv[2]);
  unsigned char salt[32] = {1}, out[32];
  char password[32];
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int counter = 0; counter < tries; counter++) {
    int length = snprintf(password, sizeof password, "%d", counter);
    PKCS5_PBKDF2_HMAC(password, length, salt, sizeof salt, iterations, EVP_sha256(), sizeof out, out);
  }
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("%f\\n", ((end.tv_sec - start.tv_sec) * 1e6 + (end.tv_nsec - start.tv_nsec) / 1e3) / tries);
  return 0;
}
`,
    );
    const binary = path.join(dir, 'pow');
    execFileSync('gcc', ['-O2', '-o', binary, source, '-lcrypto'], { stdio: 'pipe' });
    return Number(execFileSync(binary, [String(iterations), String(tries)], { encoding: 'utf8' }).trim());
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same try through WebCrypto, as the browser's worker does it (one call per counter). */
export async function webCryptoMicrosecondsPerTry(iterations: number, tries = 200): Promise<number> {
  const encoder = new TextEncoder();
  const started = performance.now();
  for (let counter = 0; counter < tries; counter += 1) {
    const key = await webcrypto.subtle.importKey('raw', encoder.encode(String(counter)), 'PBKDF2', false, ['deriveBits']);
    await webcrypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: new Uint8Array(32), iterations }, key, 256);
  }
  return ((performance.now() - started) * 1000) / tries;
}
