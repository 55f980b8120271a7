import type { APIRoute } from 'astro';

// Crawlers may read every public page; the admin, the payment flow and the API stay out.
const DISALLOWED = ['/admin', '/checkout', '/payment-success', '/api/'] as const;

export const GET: APIRoute = ({ site }) => {
  if (!site) throw new Error('Set `site` in astro.config.mjs (SITE_URL) to build robots.txt');
  const body = [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${new URL('/sitemap.xml', site).href}`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
