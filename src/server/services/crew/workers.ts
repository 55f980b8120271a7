import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { workers } from '../../../../db/schema.ts';
import { conflict, notFound } from '../../api/errors.ts';
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
): Promise<WorkerView> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [row] = await tx.update(workers).set(changes).where(eq(workers.id, id)).returning();
    if (!row) throw notFound(WORKER_NOT_FOUND);
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
