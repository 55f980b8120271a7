import { describe, expect, it } from 'vitest';
import { DEFAULT_ROUTE_GROUP_SIZE, ROUTE_GROUP_SIZES } from '../../../domain/routing.ts';
import { DEFAULT_GROUP_SIZE, ROUTE_GROUP_SIZE_OPTIONS } from './types.ts';

describe('route group sizes offered by the Locations tab', () => {
  it('are exactly the sizes the grouping call accepts, with the same default', () => {
    expect([...ROUTE_GROUP_SIZE_OPTIONS]).toEqual([...ROUTE_GROUP_SIZES]);
    expect(DEFAULT_GROUP_SIZE).toBe(DEFAULT_ROUTE_GROUP_SIZE);
  });
});
