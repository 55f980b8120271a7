import { defineConfig } from 'drizzle-kit';

// Generation only needs the schema; migrations are applied by db/migrate.ts with the
// same driver selection the app uses.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.ts',
  out: './db/migrations',
});
