import { testSettings } from '../../src/server/env.ts';

/** Fuzzing's seed and size: fixed and small in `npm test`, larger and random in `npm run fuzz`. */
export function fuzzSettings() {
  const { fuzzRuns, fuzzSeed } = testSettings();
  const seed = fuzzSeed ?? (fuzzRuns ? Date.now() % 2 ** 31 : 20261123);
  if (fuzzRuns) console.log(`Fuzzing with seed ${seed}, ${fuzzRuns} cases per route (FUZZ_SEED=${seed} repeats it)`);
  return { seed, runs: fuzzRuns ?? 12 };
}
