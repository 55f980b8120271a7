import type { Database } from '../../../db/client.ts';
import type { Env } from '../env.ts';
import type { Mailer } from '../providers/mailer.ts';
import type { PaymentsProvider } from '../providers/payments.ts';
import type { FileStore } from '../providers/files.ts';
import type { PdfPreviewRenderer } from '../providers/pdf-previews.ts';
import type { AdminCredentials } from '../admin-password.ts';
import type { AdminSession } from '../services/staff/admin-sessions.ts';
import type { StaffUserRow } from '../services/staff/staff-users.ts';
import type { BackgroundTasks } from './background.ts';

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

export interface Logger {
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

export const consoleLogger: Logger = {
  info: (message, extra) => console.log(JSON.stringify({ level: 'info', message, ...extra })),
  warn: (message, extra) => console.warn(JSON.stringify({ level: 'warn', message, ...extra })),
  error: (message, extra) => console.error(JSON.stringify({ level: 'error', message, ...extra })),
};

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export type AppEnv = {
  Variables: {
    requestId: string;
    deps: AppDeps;
    /** Set by readAdminSession: undefined until looked up, null when not signed in. */
    adminSession?: AdminSession | null;
    /** The session's account, set with adminSession. */
    adminUser?: StaffUserRow | null;
  };
  Bindings: {
    /** Netlify's function context (geo, ip) when running on Netlify. */
    context?: {
      ip?: string;
      geo?: { city?: string; country?: { code?: string; name?: string } };
      /** Keeps the function instance alive until the promise settles (background.ts). */
      waitUntil?: (promise: Promise<unknown>) => void;
    };
    /** @hono/node-server's request, when running locally. */
    incoming?: { socket?: { remoteAddress?: string } };
  };
};
