import type { Database } from '../../../db/client.ts';
import type { Env } from '../env.ts';
import type { Mailer } from '../providers/mailer.ts';
import type { PaymentsProvider } from '../providers/payments.ts';
import type { FileStore } from '../providers/files.ts';
import type { PdfPreviewRenderer } from '../providers/pdf-previews.ts';
import type { AdminCredentials } from '../admin-password.ts';
import type { BackgroundTasks } from './background.ts';
import type { Logger } from './logger.ts';

/** What the app needs from the outside world; tests pass their own (a real database always). */
export interface AppDeps {
  db: Database;
  env: Env;
  mailer: Mailer;
  /** Stripe, or null when STRIPE_SECRET_KEY is unset (the payment routes then answer 503). */
  payments: PaymentsProvider | null;
  /** Customers' uploaded files (disk locally, Netlify Blobs on Netlify). */
  files: FileStore;
  /** Draws a PDF proof's first page: in this process locally, the proof-preview function on Netlify. */
  pdfPreviews: PdfPreviewRenderer;
  /** The admin password's hash; null when none is configured (sign-in then always fails). */
  admin: AdminCredentials | null;
  /** The clock, injected so schedules and windows are testable without waiting. */
  now: () => Date;
  log: Logger;
  /** Work that runs after the answer (background.ts). */
  background: BackgroundTasks;
}
