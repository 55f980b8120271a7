// The smoke checks' reporting and their one HTTP helper (scripts/netlify-smoke.ts).

let failures = 0;

/** How many checks have failed so far. */
export const failureCount = () => failures;

/** Thrown by a check that cannot run because an earlier one failed. */
export class Skip extends Error {}

/** Runs one check and prints one line: ok, skip or FAIL, with its time. */
export async function check(name: string, work: () => Promise<string | void>): Promise<boolean> {
  const begin = performance.now();
  try {
    const note = await work();
    console.log(`  ok    ${name} (${Math.round(performance.now() - begin)} ms)${note ? `: ${note}` : ''}`);
    return true;
  } catch (error) {
    if (error instanceof Skip) {
      console.log(`  skip  ${name}: ${error.message}`);
      return false;
    }
    failures += 1;
    console.log(`  FAIL  ${name} (${Math.round(performance.now() - begin)} ms): ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

export async function call(base: string, pathname: string, init: RequestInit = {}): Promise<{ response: Response; text: string; json: any }> {
  const response = await fetch(`${base}${pathname}`, { redirect: 'manual', ...init, signal: AbortSignal.timeout(60_000) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { response, text, json };
}

export const describe = ({ response, text }: { response: Response; text: string }) => `${response.status} ${text.slice(0, 200)}`;
