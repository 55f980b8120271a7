import { openServerDatabase } from '../../../db/client.ts';
import { ConfigError } from '../env.ts';
import { remotePdfPreviews } from '../providers/pdf-preview-function.ts';
import type { Platform } from '../runtime-deps.ts';

/**
 * Netlify's functions (runtime-deps.ts): a PostgreSQL server only, migrated by the deploy
 * (`npm run deploy:build`), so neither PGlite nor the migrations travel with a function; a PDF
 * proof's preview is drawn by the proof-preview function. Under `npm run dev` (Netlify's Vite
 * plugin runs these same functions) DATABASE_URL must name a migrated server too.
 */
export const netlifyPlatform: Platform = {
  async openDatabase(env) {
    if (!env.DATABASE_URL) {
      throw new ConfigError(
        'DATABASE_URL is not set: the functions open a PostgreSQL server only (PGlite is for `npm start`). Under `npm run dev`, set DATABASE_URL to a database migrated with `npm run db:migrate`.',
      );
    }
    return openServerDatabase({ url: env.DATABASE_URL });
  },
  pdfPreviews: (env) => remotePdfPreviews(env),
};
