/** `npm start` as a user runs it, in a process group of its own, for the memory bench and budget. */
import { spawn } from 'node:child_process';
import { root, stopProcessGroup, waitUntilAnswering } from './child-server.ts';
import { processTree, type ProcessMemory } from './process-tree.ts';

export interface NpmStart {
  baseUrl: string;
  /** Every process of the tree (npm, its shell, the server and anything they started). */
  tree(): ProcessMemory[];
  /** Everything the tree printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export async function startNpmStart(env: { PORT: number; DATA_DIR: string } & Record<string, string | number>): Promise<NpmStart> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(npm, ['start'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...Object.fromEntries(Object.entries(env).map(([name, value]) => [name, String(value)])) },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${env.PORT}`;
  try {
    await waitUntilAnswering(`${baseUrl}/api/health`, child, 240_000);
  } catch (error) {
    await stopProcessGroup(child);
    throw new Error(`${(error as Error).message}\n${output.slice(-2000)}`);
  }
  return { baseUrl, tree: () => processTree(child.pid!), output: () => output, stop: () => stopProcessGroup(child) };
}
