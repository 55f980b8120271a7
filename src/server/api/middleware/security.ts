import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../app/errors.ts';
import type { AppEnv } from '../../app/request.ts';
import { isProduction } from '../../env.ts';
import { API_CONTENT_SECURITY_POLICY } from '../../csp.ts';

/**
 * Netlify's header rules cover static files only, so the API sets its own (toolchain notes).
 * API data is not cached unless its route says so (stored files, the public unavailable dates).
 */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const headers = c.res.headers;
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  // A route that its own pages frame (a PDF proof) says SAMEORIGIN itself.
  if (!headers.has('X-Frame-Options')) headers.set('X-Frame-Options', 'DENY');
  if (!headers.has('Content-Security-Policy')) {
    headers.set('Content-Security-Policy', API_CONTENT_SECURITY_POLICY);
  }
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  if (isProduction(c.get('deps').env)) {
    headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains; preload');
  }
};

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses cross-site mutations (api.md): a browser's Sec-Fetch-Site must be same-origin, or its
 * Origin must be this site. Requests without either are not from a browser page (curl, Stripe's
 * webhook) and cannot ride a visitor's cookies, so they pass; the webhook is checked by signature.
 */
export function sameOriginOnly(options: { exempt?: string[] } = {}): MiddlewareHandler<AppEnv> {
  const exempt = new Set(options.exempt ?? []);
  return async (c, next) => {
    if (!MUTATING.has(c.req.method) || exempt.has(c.req.path)) return next();
    const fetchSite = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const allowed = allowedOrigins(c.req.url, c.get('deps').env.SITE_URL);
    const crossSite =
      (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') ||
      (origin !== undefined && !allowed.has(origin));
    if (crossSite) throw new AppError(403, 'Cross-site requests are not allowed');
    return next();
  };
}

function allowedOrigins(requestUrl: string, siteUrl: string): Set<string> {
  return new Set([new URL(requestUrl).origin, new URL(siteUrl).origin]);
}
