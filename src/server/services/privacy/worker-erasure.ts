import { and, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { bookings, channelLogs, crewStops, progressLogs, workers } from '../../../../db/schema.ts';
import type { Database } from '../../../../db/client.ts';
import { workerDisplayName } from '../crew/crew-links.ts';

// Erasing a worker (docs/SECURITY.md "Erasure"): the same rule as for a customer. The worker row
// and its day links go; what the crew's day wrote into other people's records (a booking's
// status note and progress log, "Installed by Sam Carter (crew)", the channel logs, the stop
// history) keeps its facts and loses the name; the worker's e-mail address leaves the logs'
// entity ids (the route e-mail's log names its recipient there).

type WorkerRow = typeof workers.$inferSelect;

export async function workersWithEmail(db: Database, email: string): Promise<WorkerRow[]> {
  return db.select().from(workers).where(sql`lower(${workers.email}) = ${email.trim().toLowerCase()}`);
}

/** What names the worker in free text: their address and the name the crew page gave them. */
export function workerNeedles(rows: readonly WorkerRow[]): string[] {
  return rows.flatMap((row) => [row.email, workerDisplayName(row), ...(row.name ? [row.name] : [])]);
}

/** `column` with every case-insensitive occurrence of each needle replaced by `erased`. */
function withoutNeedles(column: SQL, needles: readonly string[], erased: string): SQL {
  return needles.reduce<SQL>((text, needle) => {
    const pattern = needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return sql`regexp_replace(${text}, ${pattern}, ${erased}, 'gi')`;
  }, column);
}

function mentioning(column: SQL, needles: readonly string[]): SQL {
  const escaped = needles.map((needle) => `%${needle.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
  return sql.join(
    escaped.map((pattern) => sql`${column} ilike ${pattern}`),
    sql` or `,
  );
}

/** Takes the workers' names off every record that outlives them, then deletes them. */
export async function eraseWorkers(tx: Database, rows: readonly WorkerRow[], erased: string): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((row) => row.id);
  const needles = [...new Set(workerNeedles(rows).map((needle) => needle.trim()).filter((needle) => needle.length >= 3))]
    // The longest first, so a full name goes before a first name inside it.
    .sort((a, b) => b.length - a.length);
  const statusNotes = sql`${bookings.statusNotes}`;
  await tx
    .update(bookings)
    .set({ statusNotes: withoutNeedles(statusNotes, needles, erased) })
    .where(and(isNotNull(bookings.statusNotes), mentioning(statusNotes, needles)));
  const notes = sql`${progressLogs.notes}`;
  await tx
    .update(progressLogs)
    .set({ notes: withoutNeedles(notes, needles, erased) })
    .where(and(isNotNull(progressLogs.notes), mentioning(notes, needles)));
  const emails = rows.map((row) => row.email.toLowerCase());
  await tx.update(channelLogs).set({ entityId: erased }).where(inArray(sql`lower(${channelLogs.entityId})`, emails));
  // The stop history keeps that a stop was done; the worker's name goes before the worker row,
  // whose deletion empties crew_stops.worker_id.
  await tx.update(crewStops).set({ workerName: erased }).where(inArray(crewStops.workerId, ids));
  await tx.delete(workers).where(inArray(workers.id, ids));
}
