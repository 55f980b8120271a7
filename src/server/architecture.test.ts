import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/ARCHITECTURE.md "Capabilities" names each folder of src/server/services/ with its routes and
// tables; this keeps the page and the tree in step as either changes.
const root = path.resolve(import.meta.dirname, '../..');
const servicesDir = path.join(root, 'src/server/services');
const routesDir = path.join(root, 'src/server/api/routes');

function capabilityRows() {
  const doc = readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
  const section = doc.split('## Capabilities')[1]?.split('\n## ')[0] ?? '';
  const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Capability') && !line.startsWith('|---'))
    .map((line) => {
      const [, folder = '', routes = '', tables = ''] = line.split(' | ');
      return { folder: names(folder)[0]!.replace(/\/$/, ''), routes: names(routes), tables: names(tables.replace(/ \|$/, '')) };
    });
}

const rows = capabilityRows();

describe('docs/ARCHITECTURE.md capability table', () => {
  it('names every capability folder, and every named folder exists', () => {
    const folders = readdirSync(servicesDir).filter((entry) => statSync(path.join(servicesDir, entry)).isDirectory());
    expect(rows.map((row) => row.folder).sort()).toEqual(folders.sort());
  });

  it('keeps services/ free of loose modules', () => {
    expect(readdirSync(servicesDir).filter((entry) => entry.endsWith('.ts'))).toEqual([]);
  });

  it('gives every route file a capability, and names only route files that exist', () => {
    const named = rows.flatMap((row) => row.routes);
    for (const file of named) expect(existsSync(path.join(routesDir, file)), file).toBe(true);
    expect(new Set(named)).toEqual(new Set(readdirSync(routesDir).filter((file) => file.endsWith('.ts'))));
  });

  it('gives every table a capability, and names only tables the schema has', () => {
    const schema = readFileSync(path.join(root, 'db/schema.ts'), 'utf8');
    const tables = new Set([...schema.matchAll(/pgTable\(\s*'(\w+)'/g)].map((match) => match[1]!));
    const named = rows.flatMap((row) => row.tables);
    for (const table of named) expect(tables.has(table), table).toBe(true);
    expect(new Set(named)).toEqual(tables);
  });
});

// vitest.config.ts runs the API and PostgreSQL suites with isolate: false, so the files of one
// worker share loaded modules. That is only safe while no file swaps a module or the environment
// for the files that run after it in the same worker.
describe('suites that share modules between files', () => {
  it('never mock a module, stub the environment or assign to process.env', () => {
    const folders = ['tests/api', 'tests/postgres', 'tests/setup', 'tests/fixtures'];
    const offenders = folders.flatMap((folder) =>
      readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .filter((file) => /vi\.(mock|doMock|stubEnv|stubGlobal)\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]/.test(readFileSync(path.join(root, folder, file), 'utf8')))
        .map((file) => `${folder}/${file}`),
    );
    expect(offenders).toEqual([]);
  });
});
