import { describe, expect, it } from 'vitest';
import { cleanMultiLine, cleanOneLine } from './text.ts';

describe('cleanOneLine', () => {
  it.each([
    ['plain text', 'Amira Khan', 'Amira Khan'],
    ['surrounding spaces', '  Amira  ', 'Amira'],
    ['CRLF becomes one space', 'Amira\r\nBcc: x@evil.test', 'Amira Bcc: x@evil.test'],
    ['a tab and a run of spaces', 'Amira\t   Khan', 'Amira Khan'],
    ['C0 controls', 'Am\u0000i\u0007ra\u001b[31m', 'Amira[31m'],
    ['DEL and C1 controls', 'Am\u007fi\u0085r\u009ba', 'Ami ra'],
    ['a right-to-left override', 'invoice\u202Egnp.exe', 'invoicegnp.exe'],
    ['bidi isolates', '\u2066Amira\u2069', 'Amira'],
    ['zero-width characters', 'Am\u200bi\u200dra\ufeff', 'Amira'],
    ['only zero-width characters', '\u200b\u200c\u200d\u2060\ufeff', ''],
    ['only controls and spaces', ' \u0001 \u202e ', ''],
    ['NFC: e + combining acute is é', 'Rene\u0301e', 'Renée'],
    ['letters of other scripts stay', 'Zoë Ødegård 王芳', 'Zoë Ødegård 王芳'],
  ])('%s', (_label, input, expected) => {
    expect(cleanOneLine(input)).toBe(expected);
  });
});

describe('cleanMultiLine', () => {
  it.each([
    ['keeps line breaks and tabs', 'Line one\n\tLine two', 'Line one\n\tLine two'],
    ['CRLF and CR become LF', 'a\r\nb\rc', 'a\nb\nc'],
    ['Unicode line separators become LF', 'a\u2028b\u2029c', 'a\nb\nc'],
    ['drops other controls', 'a\u0000b\u0008c\u009fd', 'abcd'],
    ['drops bidi overrides', 'gate \u202ecode', 'gate code'],
    ['keeps an emoji joiner', 'Thanks 👩\u200d💻', 'Thanks 👩\u200d💻'],
    ['trims', '\n  Near the tram stop.  \n', 'Near the tram stop.'],
  ])('%s', (_label, input, expected) => {
    expect(cleanMultiLine(input)).toBe(expected);
  });
});
