/** The one logger shape: services, providers, jobs and the HTTP layer all write through it. */
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
