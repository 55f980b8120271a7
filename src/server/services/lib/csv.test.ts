import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvPounds, toCsv } from './csv.ts';

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+44 20 7946 0000', "'+44 20 7946 0000"],
    ['-1+2', "'-1+2"],
    ['@cmd', "'@cmd"],
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    ['=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`],
    ['Zoë', 'Zoë'],
    // A spreadsheet that splits on ';' or tabs would start a formula cell after the separator.
    ['Acme;=HYPERLINK("x")', `"'Acme;=HYPERLINK(""x"")"`],
    ['Acme; +44 1', `"'Acme; +44 1"`],
    ['Acme,@cmd', `"'Acme,@cmd"`],
    ['Acme\t-1', `"'Acme\t-1"`],
    ['Acme;Ltd', '"Acme;Ltd"'],
    ['a - b', 'a - b'],
    ['ann@example.com', 'ann@example.com'],
    // Fullwidth forms that some spreadsheets fold to = + - @.
    ['\uFF1DSUM(A1)', "'\uFF1DSUM(A1)"],
    ['\uFF0B1', "'\uFF0B1"],
    ['\uFF0D1', "'\uFF0D1"],
    ['\uFF20cmd', "'\uFF20cmd"],
    ['Acme;\uFF1D1', `"'Acme;\uFF1D1"`],
    [-12.5, '-12.5'],
    [0, '0'],
    [true, 'true'],
    [null, ''],
    [undefined, ''],
  ] as const)('%j → %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('writes dates as ISO instants', () => {
    expect(csvCell(new Date('2026-11-22T10:00:00Z'))).toBe('2026-11-22T10:00:00.000Z');
  });
});

describe('toCsv', () => {
  it('starts with the BOM, puts the header first and ends every line with CRLF', () => {
    const csv = toCsv(['id', 'name'], [[1, 'Ann'], [2, 'Bo, Jr']]);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv.slice(1)).toBe('id,name\r\n1,Ann\r\n2,"Bo, Jr"\r\n');
  });
});

describe('money in a CSV', () => {
  it('is pounds with two decimals', () => {
    expect(csvPounds(104900)).toBe('1049.00');
    expect(csvPounds(1)).toBe('0.01');
    expect(csvPounds(0)).toBe('0.00');
  });
});
