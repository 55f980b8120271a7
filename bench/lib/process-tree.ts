/**
 * Resident memory of a process and everything it started, read from /proc (Linux): the figure
 * `npm start`'s memory budget is about. Each process's VmRSS counts the pages it has touched,
 * shared library pages included, so the sum is what a user's task manager would add up.
 */
import { readFileSync, readdirSync } from 'node:fs';

export interface ProcessMemory {
  pid: number;
  command: string;
  rssKiB: number;
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return children;
  }
  for (const task of tasks) {
    try {
      const list = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (list) children.push(...list.split(/\s+/).map(Number));
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return children;
}

function memoryOf(pid: number): ProcessMemory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(status);
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return { pid, command, rssKiB: rss ? Number(rss[1]) : 0 };
  } catch {
    return undefined;
  }
}

/** The process `pid` and its descendants, each with its resident memory. */
export function processTree(pid: number): ProcessMemory[] {
  const seen: ProcessMemory[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    const memory = memoryOf(next);
    if (!memory) continue;
    seen.push(memory);
    queue.push(...childrenOf(next));
  }
  return seen;
}

/** The sum of the tree's VmRSS, in MB (10^6 bytes, as the budget is written). */
export function treeRssMB(tree: ProcessMemory[]): number {
  return (tree.reduce((sum, process) => sum + process.rssKiB, 0) * 1024) / 1e6;
}
