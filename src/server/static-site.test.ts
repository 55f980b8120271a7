import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStaticSite } from './static-site.ts';
import { pageHeaders } from './site-config.ts';
import type { PolicySettings } from './csp.ts';

const dist = mkdtempSync(path.join(os.tmpdir(), 'cp-dist-'));
writeFileSync(path.join(dist, 'index.html'), '<h1>Home</h1>');
writeFileSync(path.join(dist, '404.html'), '<h1>404 Page Not Found</h1>');
mkdirSync(path.join(dist, '404'));
writeFileSync(path.join(dist, '404', 'index.html'), '<h1>404 Page Not Found</h1>');
mkdirSync(path.join(dist, 'pricing'));
writeFileSync(path.join(dist, 'pricing', 'index.html'), '<h1>Pricing</h1>');
mkdirSync(path.join(dist, 'checkout'));
writeFileSync(path.join(dist, 'checkout', 'index.html'), '<h1>Checkout</h1>');
mkdirSync(path.join(dist, 'gallery', 'project'), { recursive: true });
writeFileSync(path.join(dist, 'gallery', 'index.html'), '<h1>Our work</h1>');
writeFileSync(path.join(dist, 'gallery', 'project', 'index.html'), '<h1>Project shell</h1>');
mkdirSync(path.join(dist, 'crew'));
writeFileSync(path.join(dist, 'crew', 'index.html'), '<h1>Crew day</h1>');
mkdirSync(path.join(dist, '_astro'));
writeFileSync(path.join(dist, '_astro', 'frame.abc123.js'), 'console.log(1)');
writeFileSync(path.join(os.tmpdir(), 'secret.txt'), 'do not serve');

const policy: PolicySettings = {
  PUBLIC_MAP_TILE_URL: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png',
  PUBLIC_DEMO_VIDEO_URL: undefined,
};
const apiCalls: string[] = [];
const site = createStaticSite({
  distDir: dist,
  policy,
  api: (request) => {
    apiCalls.push(new URL(request.url).pathname);
    return Response.json({ from: 'api' });
  },
});

describe('local static site', () => {
  it('serves pages by directory with the site headers', async () => {
    const response = await site.request('/pricing');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Pricing');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(pageHeaders('/pricing', policy)['Content-Security-Policy']);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('serves /crew, whose address carries the crew token, with no Referer and never stored', async () => {
    for (const address of ['/crew', '/crew/', '/crew?t=AbCdEfGhIjKlMnOpQrStUvWxYz012345']) {
      const crew = await site.request(address);
      expect(await crew.text()).toContain('Crew day');
      expect(crew.headers.get('referrer-policy')).toBe('no-referrer');
      expect(crew.headers.get('cache-control')).toBe('no-store');
    }
    const pricing = await site.request('/pricing');
    expect(pricing.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('sends Stripe in the policy of /checkout only', async () => {
    const home = await site.request('/');
    expect(home.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(home.headers.get('content-security-policy')).not.toContain('stripe.com');
    expect(home.headers.get('permissions-policy')).toContain('payment=()');
    for (const address of ['/checkout', '/checkout/']) {
      const checkout = await site.request(address);
      expect(await checkout.text()).toContain('Checkout');
      expect(checkout.headers.get('content-security-policy')).toContain('connect-src \'self\' https://api.stripe.com');
      expect(checkout.headers.get('content-security-policy')).toContain('frame-src https://js.stripe.com');
      expect(checkout.headers.get('permissions-policy')).toContain('payment=(self "https://js.stripe.com")');
    }
  });

  it('gives the 404 page the plain page policy, and assets no page policy', async () => {
    const missing = await site.request('/checkout/missing');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe(pageHeaders('/404', policy)['Content-Security-Policy']);
    const asset = await site.request('/_astro/frame.abc123.js');
    expect(asset.headers.get('content-security-policy')).toBeNull();
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the project shell for every /gallery/{id}, keeping real pages and the 404', async () => {
    const project = await site.request('/gallery/42');
    expect(project.status).toBe(200);
    expect(await project.text()).toContain('Project shell');
    expect(await (await site.request('/gallery')).text()).toContain('Our work');
    expect((await site.request('/gallery/42/photos')).status).toBe(404);
  });

  it('answers unknown paths with the 404 page and status 404', async () => {
    const response = await site.request('/no-such-page');
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('404 Page Not Found');
  });

  it.each(['/404', '/404/', '/404.html', '/404/index.html'])('answers %s, the not-found page itself, with 404', async (url) => {
    const response = await site.request(url);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('404 Page Not Found');
  });

  it('never serves files outside the build', async () => {
    for (const attempt of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/%252e%252e/secret.txt']) {
      const response = await site.request(attempt);
      expect(await response.text()).not.toContain('do not serve');
    }
  });

  it('answers malformed escapes with the 404 page, not an error', async () => {
    for (const attempt of ['/%', '/%E0%A4%A']) {
      expect((await site.request(attempt)).status).toBe(404);
    }
  });

  it('caches fingerprinted assets for a year', async () => {
    const response = await site.request('/_astro/frame.abc123.js');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('content-type')).toContain('javascript');
  });

  it('follows the redirects', async () => {
    const response = await site.request('/book');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/booking');
  });

  it('hands /api and /uploads to the API app', async () => {
    await site.request('/api/health');
    await site.request('/uploads/a.png');
    expect(apiCalls).toEqual(['/api/health', '/uploads/a.png']);
  });

  it('refuses other methods on pages', async () => {
    expect((await site.request('/', { method: 'POST' })).status).toBe(405);
  });

  it('sends text compressed to a browser that accepts gzip, and plain to one that does not', async () => {
    const page = await site.request('/pricing', { headers: { 'Accept-Encoding': 'gzip, deflate' } });
    expect(page.headers.get('content-encoding')).toBe('gzip');
    expect(page.headers.get('vary')).toBe('Accept-Encoding');
    const unzipped = await new Response(page.body!.pipeThrough(new DecompressionStream('gzip'))).text();
    expect(unzipped).toContain('Pricing');
    const plain = await site.request('/pricing');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toContain('Pricing');
  });
});
