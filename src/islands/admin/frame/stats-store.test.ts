import { describe, expect, it, vi } from 'vitest';
import { $statsChanged, isChange, markStatsStale } from './stats-store.ts';

describe('the stat cards refresh after a change', () => {
  it.each([
    [undefined, undefined, false],
    ['GET', undefined, false],
    [undefined, { status: 'completed' }, true],
    ['PATCH', undefined, true],
    ['POST', undefined, true],
    ['DELETE', undefined, true],
  ])('%s with body %o is a change: %s', (method, body, expected) => {
    expect(isChange(method, body)).toBe(expected);
  });

  it('tells every listener once per change', () => {
    const listener = vi.fn();
    const stop = $statsChanged.listen(listener);
    markStatsStale();
    markStatsStale();
    stop();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
