import type { APIRoute } from 'astro';
import { SEO_ENTRIES, SEO_PATHS } from '../content/seo.ts';

/**
 * The public, indexable routes with absolute URLs from the configured site.
 * Pages marked noindex (checkout, tracking, admin, 404) and routes with parameters stay out.
 */
const INDEXABLE_PATHS: readonly string[] = SEO_PATHS.filter(
  (path) => !path.includes('[') && !SEO_ENTRIES[path].noindex,
);

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

export const GET: APIRoute = ({ site }) => {
  if (!site) throw new Error('Set `site` in astro.config.mjs (SITE_URL) to build the sitemap');
  const urls = INDEXABLE_PATHS.map((path) => `  <url><loc>${escapeXml(new URL(path, site).href)}</loc></url>`);
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
