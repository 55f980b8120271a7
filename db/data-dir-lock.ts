/**
 * One process at a time on an embedded database folder. PGlite keeps the database in memory and
 * writes it back to its folder; two processes on one folder (the README's `npm start`, then
 * `npm run db:seed` in another terminal) each work on their own copy and overwrite the other's
 * files, and the server then answers from a database that no longer matches its disk (a foreign
 * key that points nowhere, a 500). So the first process to open a folder holds a lock file beside
 * it naming its pid; another process is told who holds it and stops before opening anything. A
 * lock left by a process that has died (a crash, a kill -9) is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

export class DatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by another process (pid ${pid}, usually \`npm start\`). ` +
        'Two processes must not open it at once: stop that process (Ctrl+C in its terminal), then run this command again.',
    );
    this.name = 'DatabaseInUseError';
    // What the person at the terminal needs is the sentence above, not where it was thrown.
    this.stack = `${this.name}: ${this.message}`;
  }
}

export function lockPathFor(dataDir: string): string {
  return `${dataDir.replace(/[/\\]+$/, '')}.lock`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(lockPath: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes the folder's lock for this process, or throws DatabaseInUseError naming the live process
 * that holds it. Returns the release, which is also run if the process exits without calling it.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = lockPathFor(dataDir);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (holderOf(lockPath) === process.pid) rmSync(lockPath, { force: true });
      };
      process.on('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = holderOf(lockPath);
      if (pid !== null && isAlive(pid)) throw new DatabaseInUseError(dataDir, pid);
      // Left by a process that has gone (or half-written by one that died while taking it).
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}
