import { defineConfig } from 'vitest/config';

// .ci/run sets CI_TIMINGS_DIR: each run then also writes its results as JSON there, which
// scripts/ci-timings.ts summarises (the slowest files) at the end of CI.
const timingsDir = process.env.CI_TIMINGS_DIR;
const timingsFile = timingsDir ? `${timingsDir}/vitest-${process.env.npm_lifecycle_event ?? 'run'}-${process.pid}.json` : undefined;

// Four suites: pure rules (unit), the API against a real database (api: PGlite per file,
// or PostgreSQL when TEST_DATABASE_URL is set), checks that only make sense on a real
// PostgreSQL server (postgres: the Neon driver through a local WebSocket proxy), and the built
// dist/_headers read by Netlify's own parser (netlify: after a build, in .ci/run).
export default defineConfig({
  test: {
    reporters: timingsFile ? ['default', ['json', { outputFile: timingsFile }]] : ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'db/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          // Files in one worker share loaded modules (the app, drizzle, PGlite's loader): each file
          // still opens its own database, and no API test mocks a module or changes the
          // environment, so nothing leaks between files. Halves the suite's CPU time.
          isolate: false,
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/setup/global-db.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // After a build: the built dist/_headers through Netlify's own parser (.ci/run).
          name: 'netlify',
          include: ['tests/netlify/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'postgres',
          isolate: false, // as the api project
          include: ['tests/postgres/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/setup/global-db.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
