import { describe, expect, it } from 'vitest';
import { inspectJsonText, MAX_JSON_DEPTH } from './json-shape.ts';

describe('inspectJsonText', () => {
  it.each([
    ['a flat object', '{"a":1}', false],
    ['exactly the maximum depth', '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH), false],
    ['one level over the maximum', '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1), true],
    ['5000 open brackets', '['.repeat(5000), true],
    ['mixed objects and arrays', '{"a":'.repeat(40) + '1' + '}'.repeat(40), true],
    ['brackets inside a string do not count', JSON.stringify({ text: '['.repeat(5000) }), false],
    ['an escaped quote does not end the string', JSON.stringify({ text: '"' + '['.repeat(100) }), false],
    ['siblings do not add up', '[' + '[],'.repeat(100) + '[]]', false],
  ])('%s → too deep: %s', (_label, text, isTooDeep) => {
    expect(inspectJsonText(text).isTooDeep).toBe(isTooDeep);
  });

  it.each([
    ['a NUL escape', '{"name":"a\\u0000b"}', true],
    ['an escaped backslash before u0000 is not a NUL', '{"name":"a\\\\u0000b"}', false],
    ['u0000 outside an escape', '{"name":"u0000"}', false],
    ['another escape', '{"name":"\\u00e9"}', false],
    ['NUL produced by JSON.stringify', JSON.stringify({ name: 'x\u0000' }), true],
  ])('%s → NUL: %s', (_label, text, hasNul) => {
    expect(inspectJsonText(text).hasNul).toBe(hasNul);
  });
});
