import { createHash } from 'node:crypto';
import { transform, type Selector, type SelectorComponent } from 'lightningcss';

/**
 * First paint without a stylesheet round trip, for the static pages (the build runs this over
 * dist/ after Astro has written it; astro.config.mjs).
 *
 * A static page's HTML names every class its first screen uses, so the build keeps only the rules
 * of the site's stylesheet that can match those classes, and writes them into the page as one
 * <style> (its hash joins the page's CSP meta). The kept rules include every state of those classes
 * (hover, focus, the drawer's [open]), so the page needs nothing more. The whole stylesheet still
 * loads, after the page has painted: the frame script puts it in the link's place once the page has
 * loaded (src/client/frame.ts), for anything the HTML does not name and so that it is cached for
 * the pages with islands; a <noscript> copy serves browsers without script. Measured in
 * docs/PERFORMANCE.md: the render-blocking request cost the home page about 150 ms of its LCP
 * under Lighthouse's mobile settings.
 *
 * Pages with islands keep their stylesheet as it is: React renders classes their HTML does not
 * name yet.
 */

/** The class names in a page's class attributes. */
export function pageClasses(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of match[1]!.split(/\s+/)) if (name) classes.add(decodeEntities(name));
  }
  return classes;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|quot|#39|lt|gt);/g, (_, entity: string) => ({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>' })[entity]!);
}

/**
 * Whether a selector can match on a page with these classes: every class it names outside a
 * pseudo-class's own selectors (`:where(…)`, `:not(…)`) is on the page. Those inner selectors are
 * left alone, which keeps a little more than needed but never drops a rule the page uses.
 */
function canMatch(selector: Selector, classes: Set<string>): boolean {
  return selector.every((component: SelectorComponent) => component.type !== 'class' || classes.has(component.name));
}

/** The rules of `css` that can apply to a page with these classes (minified). */
export function criticalCss(css: string, classes: Set<string>): string {
  const { code } = transform({
    filename: 'critical.css',
    code: Buffer.from(css),
    minify: true,
    visitor: {
      Rule: {
        // A rule goes when none of its selectors can match; one that can keeps all its selectors
        // (rewriting a rule's selector list would re-serialise the whole rule).
        style(rule) {
          return rule.value.selectors.some((selector) => canMatch(selector, classes)) ? undefined : [];
        },
      },
    },
  });
  return code.toString();
}

const STYLESHEET_LINK = /<link rel="stylesheet" href="(\/_astro\/[^"]+\.css)">/g;

/**
 * The page with its stylesheets' critical rules inline and the sheets themselves deferred, or
 * null when the page is left as it is (it hosts islands, or links no stylesheet of the build).
 * `readStylesheet` reads a linked sheet from the build by its path.
 */
export function inlineCriticalCss(html: string, readStylesheet: (href: string) => string): string | null {
  if (html.includes('<astro-island')) return null;
  const hrefs = [...html.matchAll(STYLESHEET_LINK)].map((match) => match[1]!);
  if (hrefs.length === 0) return null;
  const css = criticalCss(hrefs.map(readStylesheet).join('\n'), pageClasses(html));
  const hash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

  let first = true;
  const withStyle = html.replace(STYLESHEET_LINK, (_, href: string) => {
    const deferred = `<link rel="stylesheet" href="${href}" data-deferred>`;
    const replacement = `${first ? `<style>${css}</style>` : ''}<template data-deferred-stylesheet>${deferred}</template><noscript><link rel="stylesheet" href="${href}"></noscript>`;
    first = false;
    return replacement;
  });
  const withPolicy = withStyle.replace(/(<meta http-equiv="content-security-policy" content="[^"]*style-src 'self')/, `$1 ${hash}`);
  if (withPolicy === withStyle) throw new Error('The page has no CSP meta with a style-src to allow its critical CSS');
  return withPolicy;
}
