import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectFileType, sanitizeOriginalName, svgRefusalReason, svgText } from './file-type.ts';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../../../tests/fixtures/${name}`, import.meta.url)));

describe('detectFileType', () => {
  it.each([
    ['a PNG', fixture('logo.png'), 'image/png'],
    ['a JPEG (JFIF)', bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46), 'image/jpeg'],
    ['a JPEG (Exif)', bytes(0xff, 0xd8, 0xff, 0xe1, 0x00, 0x10), 'image/jpeg'],
    ['a PDF', text('%PDF-1.7\n%âãÏÓ\n1 0 obj'), 'application/pdf'],
    ['an SVG', fixture('logo.svg'), 'image/svg+xml'],
    ['an SVG without a declaration', text('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
    ['an SVG after a BOM, comment and doctype', text('\uFEFF<!-- logo -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg></svg>'), 'image/svg+xml'],
    ['text named .png', text('just some words, not an image'), null],
    ['HTML', text('<!doctype html><html><body><svg></svg></body></html>'), null],
    ['XML that is not SVG', text('<?xml version="1.0"?><note><svg/></note>'), null],
    ['a GIF', text('GIF89a\u0001\u0000'), null],
    ['a truncated PNG signature', bytes(0x89, 0x50, 0x4e, 0x47), null],
    ['a ZIP', bytes(0x50, 0x4b, 0x03, 0x04), null],
    ['not UTF-8', bytes(0x3c, 0x73, 0x76, 0x67, 0x20, 0xff, 0xfe), null],
    ['empty', bytes(), null],
  ])('%s → %s', (_name, content, mimeType) => {
    expect(detectFileType(content)?.mimeType ?? null).toBe(mimeType);
  });

  it('gives the extension the stored name uses', () => {
    expect(detectFileType(fixture('logo.png'))?.extension).toBe('png');
    expect(detectFileType(bytes(0xff, 0xd8, 0xff, 0xdb))?.extension).toBe('jpg');
  });
});

describe('svgRefusalReason', () => {
  const wrap = (inner: string, attributes = '') => `<svg xmlns="http://www.w3.org/2000/svg"${attributes}>${inner}</svg>`;

  it.each([
    ['a plain drawing', wrap('<rect width="10" height="10" fill="#000"/>')],
    ['the fixture logo (gradient, use, text)', new TextDecoder().decode(fixture('logo.svg'))],
    ['a fragment link', wrap('<use href="#a"/><g id="a"/>')],
    ['an xlink fragment link', wrap('<use xlink:href="#a"/>')],
    ['an embedded PNG', wrap('<image href="data:image/png;base64,iVBORw0KGgo="/>')],
    ['a fragment url()', wrap('<rect fill="url(#g)" style="fill: url(\'#g\')"/>')],
    ['words that contain "on"', wrap('<text font-family="Montserrat">Long sessions</text>')],
  ])('accepts %s', (_name, svg) => {
    expect(svgRefusalReason(svg)).toBeNull();
  });

  it.each([
    ['a script element', wrap('<script>alert(1)</script>')],
    ['a script element in capitals', wrap('<SCRIPT>alert(1)</SCRIPT>')],
    ['an onload handler', wrap('', ' onload="alert(1)"')],
    ['an onclick handler', wrap('<rect onclick = "alert(1)"/>')],
    ['a javascript: link', wrap('<a href="javascript:alert(1)"><text>x</text></a>')],
    ['a foreignObject', wrap('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>')],
    ['an external image', wrap('<image href="https://evil.example/x.png"/>')],
    ['an external xlink', wrap('<use xlink:href="other.svg#a"/>')],
    ['a protocol-relative link', wrap("<image href='//evil.example/x.png'/>")],
    ['an unquoted link', wrap('<image href=https://evil.example/x.png />')],
    ['an SVG data URL', wrap('<image href="data:image/svg+xml;base64,PHN2Zz4="/>')],
    ['an external url()', wrap('<rect style="fill: url(https://evil.example/p.svg#g)"/>')],
    ['an @import', wrap('<style>@import "https://evil.example/a.css";</style>')],
    ['an entity declaration', '<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>'],
    ['a stylesheet instruction', '<?xml-stylesheet href="https://evil.example/a.css"?><svg/>'],
    ['an animated link', wrap('<a href="#x"><set attributeName="href" to="https://evil.example"/></a>')],
    ['a <set> that adds an onload handler', wrap('<set attributeName="onload" to="alert(1)"/>')],
    ['an <animate> that adds an onclick handler', wrap("<rect><animate attributeName='onclick' values='alert(1)'/></rect>")],
    ['an <animate> on an xlink:href', wrap('<a xlink:href="#x"><animate attributeName="xlink:href" values="https://evil.example"/></a>')],
    ['an iframe', wrap('<iframe src="https://evil.example"/>')],
    ['a prefixed script', wrap('<s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script>')],
    ['an HTML-namespace script', wrap('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>')],
    ['a prefixed foreignObject', wrap('<s:foreignObject xmlns:s="http://www.w3.org/2000/svg"><p>x</p></s:foreignObject>')],
    ['a prefixed iframe', wrap('<h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="https://evil.example"/>')],
    ['HTML content by default namespace', wrap('<g><div xmlns="http://www.w3.org/1999/xhtml">x</div></g>')],
    ['an escaped @import', wrap('<style>@\\69mport "https://evil.example/a.css";</style>')],
    ['an escaped url() in a style attribute', wrap('<rect style="fill: \\75rl(https://evil.example/p.svg#g)"/>')],
  ])('refuses %s', (_name, svg) => {
    expect(svgRefusalReason(svg)).not.toBeNull();
  });
});

describe('svgText', () => {
  it('returns the text of an SVG and null otherwise', () => {
    expect(svgText(text('<svg/>'))).toBe('<svg/>');
    expect(svgText(text('<svgx/>'))).toBeNull();
  });
});

describe('sanitizeOriginalName', () => {
  it.each([
    ['logo.png', 'logo.png'],
    ['C:\\Users\\me\\Logo Final.png', 'Logo Final.png'],
    ['../../etc/passwd', 'passwd'],
    ['a\u0000b\nc.pdf', 'abc.pdf'],
    ['  spaced   out  .svg ', 'spaced out .svg'],
    ['', 'upload.png'],
    ['..', 'upload.png'],
    ['x'.repeat(300), 'x'.repeat(200)],
    ['invoice\u202Egnp.exe', 'invoicegnp.exe'],
    ['\u2066logo\u2069.png', 'logo.png'],
    ['\u200b\u200d.png', '.png'],
    ['\u200b\ufeff', 'upload.png'],
    ['Rene\u0301e.pdf', 'Renée.pdf'],
  ])('%j → %j', (name, expected) => {
    expect(sanitizeOriginalName(name, 'png')).toBe(expected);
  });
});
