import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import {
  IMMUTABLE_ASSET_PREFIX,
  IMMUTABLE_CACHE,
  PAGE_CACHE,
  REDIRECTS,
  REWRITES,
  SITE_HEADERS,
} from './site-config.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  '.mp4': 'video/mp4',
};

interface StaticSiteOptions {
  distDir: string;
  /** The API app's fetch; it answers /api/* and /uploads/*. */
  api: (request: Request, env?: unknown) => Response | Promise<Response>;
}

/**
 * What Netlify does in production, for local runs: the API at its paths, the pre-rendered
 * pages and assets with netlify.toml's headers and redirects, and the 404 page with status 404.
 */
export function createStaticSite({ distDir, api }: StaticSiteOptions) {
  const root = path.resolve(distDir);
  const site = new Hono();
  const notFound = path.join(root, '404.html');
  const notFoundPages = new Set([notFound, path.join(root, '404', 'index.html')]);

  site.all('/api/*', (c) => api(c.req.raw, c.env));
  site.all('/uploads/*', (c) => api(c.req.raw, c.env));

  site.use('*', compress());
  site.use('*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SITE_HEADERS)) {
      // HSTS only means something over HTTPS; the local server speaks plain HTTP.
      if (name === 'Strict-Transport-Security') continue;
      c.res.headers.set(name, value);
    }
  });

  for (const redirect of REDIRECTS) {
    site.get(redirect.from, (c) => c.redirect(redirect.to, redirect.status));
  }

  for (const rewrite of REWRITES) {
    site.on(['GET', 'HEAD'], rewrite.from, async (c, next) => {
      if (await resolveFile(root, c.req.path)) return next();
      const shell = await resolveFile(root, rewrite.to);
      if (!shell) return next();
      return sendFile(shell, PAGE_CACHE, rewrite.status);
    });
  }

  site.on(['GET', 'HEAD'], '*', async (c) => {
    // c.req.path is already decoded; decoding again would turn "%25" into a traversal or throw.
    const file = await resolveFile(root, c.req.path);
    // /404 and /404.html resolve to the not-found page itself: it is never a page that exists.
    if (file && !notFoundPages.has(file)) {
      return sendFile(file, c.req.path.startsWith(IMMUTABLE_ASSET_PREFIX) ? IMMUTABLE_CACHE : PAGE_CACHE, 200);
    }
    return sendFile(notFound, PAGE_CACHE, 404);
  });

  site.all('*', (c) => c.text('Method Not Allowed', 405, { Allow: 'GET, HEAD' }));
  return site;
}

async function resolveFile(root: string, requestPath: string): Promise<string | undefined> {
  const target = path.resolve(root, `.${path.posix.normalize(requestPath)}`);
  if (target !== root && !target.startsWith(root + path.sep)) return undefined;
  for (const candidate of [target, path.join(target, 'index.html'), `${target}.html`]) {
    try {
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      /* try the next candidate */
    }
  }
  return undefined;
}

async function sendFile(file: string, cacheControl: string, status: 200 | 404): Promise<Response> {
  const info = await stat(file);
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream;
  return new Response(body, {
    status,
    headers: { 'Content-Type': type, 'Content-Length': String(info.size), 'Cache-Control': cacheControl },
  });
}
