import { describe, expect, it } from 'vitest';
import { AppError } from '../../app/errors.ts';
import { DEFAULT_PAGE_SIZE, encodeCursor, likePattern, readPageRequest } from './keyset-page.ts';

describe('likePattern', () => {
  it.each([
    ['ada', '%ada%'],
    ['100%', '%100\\%%'],
    ['a_b', '%a\\_b%'],
    ['back\\slash', '%back\\\\slash%'],
  ])('%s → %s', (text, pattern) => {
    expect(likePattern(text)).toBe(pattern);
  });
});

describe('readPageRequest', () => {
  it.each([
    [{}, { limit: DEFAULT_PAGE_SIZE, cursor: null }],
    [{ limit: '1' }, { limit: 1, cursor: null }],
    [{ limit: '200' }, { limit: 200, cursor: null }],
    [{ cursor: encodeCursor('1795683600123456', 42) }, { limit: DEFAULT_PAGE_SIZE, cursor: { micros: '1795683600123456', id: 42 } }],
  ])('%j reads as %j', (query, page) => {
    expect(readPageRequest(query)).toEqual(page);
  });

  it.each([{ limit: '0' }, { limit: '201' }, { limit: '2.5' }, { limit: 'ten' }, { cursor: 'nonsense' }, { cursor: encodeCursor('12', 99_999_999_999) }])(
    '%j is a 400',
    (query) => {
      expect(() => readPageRequest(query)).toThrow(AppError);
      try {
        readPageRequest(query);
      } catch (error) {
        expect((error as AppError).status).toBe(400);
      }
    },
  );
});
