/**
 * A whole-database dump as JSON, and its load into a freshly migrated database: the backup of the
 * embedded database (`npm run db:export` / `npm run db:import`), and a way to carry data between
 * any two databases of the same schema (PGlite, PostgreSQL, Neon). Production backups are Neon's
 * own (branches and point-in-time restore, docs/SECURITY.md); this is for the local database.
 *
 * Rows travel as PostgreSQL's own JSON (`row_to_json`) and come back through
 * `json_populate_recordset`, so every column type round-trips exactly without per-type code.
 */
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { is, sql } from 'drizzle-orm';
import { PgTable as PgTableClass } from 'drizzle-orm/pg-core';
import { rowsOf, type Database } from './client.ts';
import * as schema from './schema.ts';

export const DUMP_FORMAT = 'clean-patch-dump/1';

export interface DatabaseDump {
  format: typeof DUMP_FORMAT;
  exportedAt: string;
  tables: Record<string, unknown[]>;
}

/** Every table of the schema, parents before children (foreign keys), so a load never breaks one. */
export function tablesInLoadOrder(): { name: string; table: PgTable; serial: string[] }[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTableClass));
  const configs = new Map(tables.map((table) => [getTableConfig(table).name, table]));
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    for (const key of getTableConfig(configs.get(name)!).foreignKeys) {
      const parent = getTableConfig(key.reference().foreignTable).name;
      if (parent !== name) visit(parent, path);
    }
    ordered.push(name);
  };
  for (const name of [...configs.keys()].sort()) visit(name, new Set());
  return ordered.map((name) => {
    const table = configs.get(name)!;
    const serial = getTableConfig(table)
      .columns.filter((column) => column.columnType === 'PgSerial')
      .map((column) => column.name);
    return { name, table, serial };
  });
}

/**
 * Tables a dump leaves out. The client-address hash keys (services/limits/client-hash-keys.ts) must be
 * gone two days after their day, so that the hashes they made can never be tied to an address
 * again; a dump kept longer would keep them. A loaded dump therefore starts with no keys: the
 * server makes the day's key anew, and clients count from zero.
 */
export const NOT_EXPORTED: ReadonlySet<string> = new Set(['client_hash_keys']);

export async function exportDatabase(db: Database, now = new Date()): Promise<DatabaseDump> {
  const tables: Record<string, unknown[]> = {};
  for (const { name } of tablesInLoadOrder()) {
    if (NOT_EXPORTED.has(name)) continue;
    const result = await db.execute(sql`select coalesce(json_agg(row_to_json(t)), '[]'::json) as rows from ${sql.identifier(name)} t`);
    const [row] = rowsOf<{ rows: unknown[] | string }>(result);
    tables[name] = typeof row?.rows === 'string' ? (JSON.parse(row.rows) as unknown[]) : (row?.rows ?? []);
  }
  return { format: DUMP_FORMAT, exportedAt: now.toISOString(), tables };
}

/**
 * A dump made before `booking_files` existed kept each brand file's booking on the file's own row
 * (`uploaded_files.booking_id`, which a load would drop without a word): those become the links.
 */
function withBookingFiles(tables: DatabaseDump['tables']): DatabaseDump['tables'] {
  if (tables.booking_files || !tables.uploaded_files) return tables;
  const files = tables.uploaded_files as { id: number; booking_id?: number | null }[];
  const links = files.flatMap((file) => (typeof file.booking_id === 'number' ? [{ booking_id: file.booking_id, file_id: file.id }] : []));
  return { ...tables, booking_files: links };
}

/**
 * Replaces every row of the database with the dump's, in one transaction: a dump that does not
 * load leaves the database as it was. Serial counters continue after the highest loaded id.
 */
export async function importDatabase(db: Database, dump: DatabaseDump): Promise<Record<string, number>> {
  if (dump?.format !== DUMP_FORMAT || typeof dump.tables !== 'object') {
    throw new Error(`Not a ${DUMP_FORMAT} file`);
  }
  const order = tablesInLoadOrder();
  const known = new Set(order.map((table) => table.name));
  const unknown = Object.keys(dump.tables).filter((name) => !known.has(name));
  if (unknown.length) throw new Error(`The dump has tables this schema does not: ${unknown.join(', ')}`);
  const tables = withBookingFiles(dump.tables);
  const counts: Record<string, number> = {};
  await db.transaction(async (tx) => {
    // Tables a dump never holds keep their rows: emptying the client-address keys would give the
    // running instances, which hold today's key in memory, and new ones two different keys.
    const loaded = order.filter((table) => !NOT_EXPORTED.has(table.name));
    await tx.execute(sql.raw(`truncate ${loaded.map((table) => `"${table.name}"`).join(', ')} restart identity cascade`));
    for (const { name, serial } of loaded) {
      const rows = tables[name] ?? [];
      counts[name] = rows.length;
      if (rows.length) {
        await tx.execute(
          sql`insert into ${sql.identifier(name)} select * from json_populate_recordset(null::${sql.identifier(name)}, ${JSON.stringify(rows)}::json)`,
        );
      }
      for (const column of serial) {
        await tx.execute(
          sql`select setval(pg_get_serial_sequence(${name}, ${column}), coalesce((select max(${sql.identifier(column)}) from ${sql.identifier(name)}), 0) + 1, false)`,
        );
      }
    }
  });
  return counts;
}
