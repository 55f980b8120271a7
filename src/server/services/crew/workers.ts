import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { crewLinks, workers } from '../../../../db/schema.ts';
import { conflict, notFound } from '../../app/errors.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import type { NewWorker } from '../../../domain/workers.ts';

// The installers the 6 PM e-mail goes to (admin-dashboard.md §2 Workers tab). Every change is
// logged on the 'admin' channel in the same transaction.

export interface WorkerView {
  id: number;
  name: string | null;
  email: string;
  active: boolean;
  createdAt: string;
}

type WorkerRow = typeof workers.$inferSelect;
const view = (row: WorkerRow): WorkerView => ({ ...row, createdAt: row.createdAt.toISOString() });

export const WORKER_EXISTS = 'A worker with this email already exists';
const WORKER_NOT_FOUND = 'Worker not found';

export async function listWorkers(db: Database): Promise<WorkerView[]> {
  return (await db.select().from(workers).orderBy(asc(workers.id))).map(view);
}

export async function addWorker(db: Database, input: NewWorker, userId: string): Promise<WorkerView> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [row] = await tx
      .insert(workers)
      .values({ email: input.email, name: input.name })
      .onConflictDoNothing({ target: workers.email })
      .returning();
    if (!row) throw conflict(WORKER_EXISTS, { email: WORKER_EXISTS });
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'worker_added',
      entityType: 'worker',
      entityId: row.id,
      userId,
      details: `Worker ${row.email} added`,
    });
    return view(row);
  });
}

export async function updateWorker(
  db: Database,
  id: number,
  changes: { name?: string | null; active?: boolean },
  userId: string,
  now: Date,
): Promise<WorkerView> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const named = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const [row] = Object.keys(named).length
      ? await tx.update(workers).set(named).where(eq(workers.id, id)).returning()
      : await tx.select().from(workers).where(eq(workers.id, id));
    if (!row) throw notFound(WORKER_NOT_FOUND);
    // Deactivation ends the worker's links for good: activating them again later revives none;
    // the next e-mail gives them a new one.
    if (changes.active === false) {
      await tx.update(crewLinks).set({ revokedAt: now }).where(and(eq(crewLinks.workerId, id), isNull(crewLinks.revokedAt)));
    }
    const what = [
      ...(changes.active === undefined ? [] : [changes.active ? 'activated' : 'deactivated']),
      ...(changes.name === undefined ? [] : ['renamed']),
    ].join(' and ');
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'worker_updated',
      entityType: 'worker',
      entityId: row.id,
      userId,
      details: `Worker ${row.email} ${what}`,
      metadata: { ...changes },
    });
    return view(row);
  });
}

export async function removeWorker(db: Database, id: number, userId: string): Promise<void> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [row] = await tx.delete(workers).where(eq(workers.id, id)).returning({ email: workers.email });
    if (!row) throw notFound(WORKER_NOT_FOUND);
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'worker_removed',
      entityType: 'worker',
      entityId: id,
      userId,
      details: `Worker ${row.email} removed`,
    });
  });
}
