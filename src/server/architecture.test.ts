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

// The server's layers (docs/ARCHITECTURE.md "Layers"): api/ (HTTP: routes, middleware) sits on
// services/, providers/ and email/, which sit on app/ (dependencies, logger, the error model).
// Nothing below the HTTP layer may reach back up into it, and no module may import itself in a
// circle, so each folder can be read, tested and changed from the bottom up.
const sourceExtensions = /\.(ts|tsx|mts)$/;
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => sourceExtensions.test(file) || file.endsWith('.astro'))
    .map((file) => path.join(folder, file));
}

/** Relative imports and re-exports of a module, as paths from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)].map((match) =>
    path.relative(root, path.resolve(path.dirname(path.join(root, file)), match[1] ?? match[2]!)),
  );
}

describe('server layers', () => {
  it('never import the HTTP layer from outside it (runtime.ts mounts the app, and is the one exception)', () => {
    const outside = [...sourceFiles('src'), ...sourceFiles('db')].filter(
      (file) => !file.startsWith('src/server/api/') && file !== 'src/server/runtime.ts',
    );
    const offenders = outside.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('src/server/api/'))
        .map((target) => `${file} → ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('hold no import circles in src/server', () => {
    const files = sourceFiles('src/server').filter((file) => !isTest(file));
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => known.has(target))]));
    // Tarjan's strongly connected components: any component of two or more files is a circle.
    let counter = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (file: string) => {
      index.set(file, counter);
      low.set(file, counter);
      counter += 1;
      stack.push(file);
      onStack.add(file);
      for (const target of graph.get(file)!) {
        if (!index.has(target)) {
          visit(target);
          low.set(file, Math.min(low.get(file)!, low.get(target)!));
        } else if (onStack.has(target)) {
          low.set(file, Math.min(low.get(file)!, index.get(target)!));
        }
      }
      if (low.get(file) === index.get(file)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== file);
        if (component.length > 1) circles.push(component.sort());
      }
    };
    for (const file of files) if (!index.has(file)) visit(file);
    expect(circles).toEqual([]);
  });
});

// A module past about 300 lines usually holds two ideas; split it by noun when it grows. Tests,
// the schema (one drizzle file by design) and generated data are exempt.
const MAX_MODULE_LINES = 300;
const LINE_LIMIT_EXEMPT = new Set(['db/schema.ts', 'src/domain/outcode-regions.ts']);

describe('module size', () => {
  it(`keeps every source module within ${MAX_MODULE_LINES} lines`, () => {
    const modules = ['src', 'db', 'netlify', 'scripts']
      .flatMap(sourceFiles)
      .filter((file) => !isTest(file) && !file.includes('/migrations/') && !file.endsWith('.data.ts') && !LINE_LIMIT_EXEMPT.has(file));
    const long = modules
      .map((file) => ({ file, lines: readFileSync(path.join(root, file), 'utf8').split('\n').length - 1 }))
      .filter((module) => module.lines > MAX_MODULE_LINES)
      .map((module) => `${module.file}: ${module.lines}`);
    expect(long).toEqual([]);
  });
});
