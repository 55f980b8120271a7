/**
 * `npm run admin:hash`: prints ADMIN_PASSWORD_HASH for a password, so production keeps only the
 * hash. The password comes from the argument (`npm run admin:hash -- 'secret'`, which leaves it
 * in the shell's history) or, better, typed at the prompt without echo, or piped on stdin.
 */
import { createInterface } from 'node:readline';
import { hashAdminPassword } from '../src/server/admin-password.ts';

async function readPassword(): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) {
    let text = '';
    for await (const chunk of input) text += String(chunk);
    return text.replace(/\r?\n$/, '');
  }
  process.stderr.write('Admin password (not shown): ');
  input.setRawMode(true);
  const rl = createInterface({ input, terminal: false });
  return new Promise((resolve) => {
    let password = '';
    input.on('data', (buffer: Buffer) => {
      for (const char of buffer.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          input.setRawMode(false);
          rl.close();
          input.pause();
          process.stderr.write('\n');
          return resolve(password);
        }
        if (char === '\u0003') process.exit(130);
        if (char === '\u007f') password = password.slice(0, -1);
        else password += char;
      }
    });
  });
}

const password = process.argv[2] ?? (await readPassword());
if (password.length < 12) {
  console.error('Choose a password of at least 12 characters.');
  process.exit(1);
}
console.log(`ADMIN_PASSWORD_HASH=${await hashAdminPassword(password)}`);
