import { defineConfig } from 'vitest/config';

// Four suites: pure rules (unit), the API against a real database (api: PGlite per file,
// or PostgreSQL when TEST_DATABASE_URL is set), checks that only make sense on a real
// PostgreSQL server (postgres: the Neon driver through a local WebSocket proxy), and the built
// dist/_headers read by Netlify's own parser (netlify: after a build, in .ci/run).
export default defineConfig({
  test: {
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
