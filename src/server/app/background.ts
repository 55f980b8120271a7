import type { Logger } from './logger.ts';

/**
 * Work a request starts but its answer need not wait for, such as sending the e-mails a booking
 * just wrote to the outbox. Each task's failure is logged, never thrown: what it left undone
 * stays in the database for the hourly maintenance job. `idle()` resolves once every task has
 * settled (the local server waits for it before closing the database; tests, before reading).
 */
export interface BackgroundTasks {
  run(task: () => Promise<unknown>): Promise<void>;
  idle(): Promise<void>;
}

export function createBackgroundTasks(log: Logger): BackgroundTasks {
  const pending = new Set<Promise<void>>();
  return {
    run(task) {
      const promise: Promise<void> = Promise.resolve()
        .then(task)
        .then(
          () => undefined,
          (error: unknown) => log.error('Background task failed', { error: error instanceof Error ? error.message : String(error) }),
        )
        .finally(() => pending.delete(promise));
      pending.add(promise);
      return promise;
    },
    async idle() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

