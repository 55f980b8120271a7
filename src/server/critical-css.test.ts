import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineCriticalCssInBuild } from './build-integrations.ts';
import { criticalCss, inlineCriticalCss, pageClasses } from './critical-css.ts';

const SHEET = [
  '@font-face{font-family:Inter;src:url(/_astro/inter.woff2)format("woff2")}',
  ':root{--color-ink:#121614}',
  'html{color:var(--color-ink)}',
  '.mt-5{margin-top:1.25rem}',
  '.hidden{display:none}',
  '.hover\\:bg-ink:hover{background:#121614}',
  '.group:hover .group-hover\\:underline{text-decoration:underline}',
  '.is-open,.mt-5{outline:0}',
  ':where(.space-y-2>:not(:last-child)){margin-block-end:.5rem}',
  '@media (width>=40rem){.sm\\:text-xl{font-size:1.25rem}.sm\\:grid{display:grid}}',
].join('');

function page(body: string, links = '<link rel="stylesheet" href="/_astro/site.css">') {
  return `<html><head><meta http-equiv="content-security-policy" content="default-src 'none'; style-src 'self' 'sha256-astro='">${links}</head><body>${body}</body></html>`;
}

describe('pageClasses', () => {
  it('collects every class of every element, with entities decoded', () => {
    const classes = pageClasses('<p class="mt-5  sm:text-xl"></p><svg class="shrink-0"></svg><a class="[&amp;_p]:mt-0">');
    expect([...classes].sort()).toEqual(['[&_p]:mt-0', 'mt-5', 'shrink-0', 'sm:text-xl']);
  });
});

describe('criticalCss', () => {
  const css = criticalCss(SHEET, new Set(['mt-5', 'sm:text-xl', 'hover:bg-ink']));

  it('keeps the rules the page can use: fonts, variables, elements, its classes and their states', () => {
    expect(css).toContain('@font-face');
    expect(css).toContain('--color-ink:#121614');
    expect(css).toContain('html{color:var(--color-ink)}');
    expect(css).toContain('.mt-5{margin-top:1.25rem}');
    expect(css).toContain('.hover\\:bg-ink:hover');
    expect(css).toMatch(/@media \(width>=40rem\)\{\.sm\\:text-xl\{font-size:1\.25rem\}\}/);
    // A list with one usable selector keeps the rule; classes inside :where() are not judged.
    expect(css).toContain('.is-open,.mt-5{outline:0}');
    expect(css).toContain('.space-y-2');
  });

  it('drops the rules of classes the page does not have', () => {
    expect(css).not.toContain('.hidden');
    expect(css).not.toContain('group-hover');
    expect(css).not.toContain('sm\\:grid');
  });
});

describe('inlineCriticalCss', () => {
  const sheets: Record<string, string> = { '/_astro/site.css': SHEET, '/_astro/map.css': '.leaflet-pane{z-index:400}' };
  const read = (href: string) => sheets[href]!;

  it('writes the critical rules inline, allows exactly them in the CSP meta, and defers the sheet', () => {
    const html = inlineCriticalCss(page('<p class="mt-5">Hi</p>'), read)!;
    const style = /<style>(.*?)<\/style>/.exec(html)![1]!;
    expect(style).toContain('.mt-5{margin-top:1.25rem}');
    expect(style).not.toContain('.hidden');
    const hash = createHash('sha256').update(style).digest('base64');
    expect(html).toContain(`style-src 'self' 'sha256-${hash}' 'sha256-astro='`);
    // No render-blocking link is left; the frame script adds the template's link after load,
    // and a browser without script gets it from <noscript>.
    expect(html).not.toMatch(/<link rel="stylesheet" href="\/_astro\/site.css">(?!<\/noscript>)/);
    expect(html).toContain('<template data-deferred-stylesheet><link rel="stylesheet" href="/_astro/site.css" data-deferred></template>');
    expect(html).toContain('<noscript><link rel="stylesheet" href="/_astro/site.css"></noscript>');
  });

  it('joins several sheets into one inline style and defers each', () => {
    const html = inlineCriticalCss(page('<div class="mt-5"></div>', '<link rel="stylesheet" href="/_astro/site.css"><link rel="stylesheet" href="/_astro/map.css">'), read)!;
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html.match(/<template data-deferred-stylesheet>/g)).toHaveLength(2);
  });

  it('leaves pages with islands and pages without a stylesheet alone', () => {
    expect(inlineCriticalCss(page('<astro-island uid="1"></astro-island>'), read)).toBeNull();
    expect(inlineCriticalCss(page('<p>Hi</p>', ''), read)).toBeNull();
  });

  it('refuses a page whose policy would block its own critical CSS', () => {
    expect(() => inlineCriticalCss('<head><link rel="stylesheet" href="/_astro/site.css"></head>', read)).toThrow(/CSP meta/);
  });
});

describe('inlineCriticalCssInBuild', () => {
  it('rewrites every static page of a build, in nested folders, and leaves island pages as built', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'cp-critical-'));
    try {
      mkdirSync(path.join(root, '_astro'));
      mkdirSync(path.join(root, 'pricing'));
      mkdirSync(path.join(root, 'booking'));
      writeFileSync(path.join(root, '_astro/site.css'), SHEET);
      writeFileSync(path.join(root, 'index.html'), page('<p class="mt-5">Home</p>'));
      writeFileSync(path.join(root, 'pricing/index.html'), page('<p class="hidden">Pricing</p>'));
      const island = page('<astro-island uid="1"></astro-island>');
      writeFileSync(path.join(root, 'booking/index.html'), island);

      expect(await inlineCriticalCssInBuild(root)).toEqual({ inlined: 2, pages: 3 });
      expect(readFileSync(path.join(root, 'index.html'), 'utf8')).toContain('.mt-5{margin-top:1.25rem}');
      expect(readFileSync(path.join(root, 'pricing/index.html'), 'utf8')).toContain('.hidden{display:none}');
      expect(readFileSync(path.join(root, 'booking/index.html'), 'utf8')).toBe(island);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
