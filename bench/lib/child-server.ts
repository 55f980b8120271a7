/** A bench server in a process group of its own: started, awaited on /api/health, and stopped as one. */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ChildServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Runs `tsx <script>` with `env`; its output goes to `logFile`, shown if it fails to start. */
export async function startChildServer(script: string, env: NodeJS.ProcessEnv, port: number, logFile: string): Promise<ChildServer> {
  const log = openSync(logFile, 'a');
  const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const child = spawn(process.execPath, [tsx, script], { cwd: root, env, detached: true, stdio: ['ignore', log, log] });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(`${baseUrl}/api/health`, child);
  } catch (error) {
    await stopProcessGroup(child);
    throw new Error(`${(error as Error).message}\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
  }
  return { baseUrl, stop: () => stopProcessGroup(child) };
}

/** Resolves once `url` answers 2xx; rejects if `child` exits first or `timeoutMs` passes. */
export async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server stopped (exit ${child.exitCode}) before it answered`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer ${url} within ${Math.round(timeoutMs / 1000)} s`);
}

/** SIGTERM to the child's process group, SIGKILL after 5 s if it is still there. */
export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      /* already gone */
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** In a bench server: on SIGINT or SIGTERM, close the HTTP server and the runtime, then exit. */
export function closeOnSignal(server: { close(): unknown }, runtime: { close(): Promise<void> }): void {
  const stop = async () => {
    server.close();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
