import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import {
  IMMUTABLE_ASSET_PREFIX,
  IMMUTABLE_CACHE,
  PAGE_CACHE,
  pageCache,
  REDIRECTS,
  REWRITES,
  SITE_HEADERS,
  pageHeaders,
} from './site-config.ts';
import type { PolicySettings } from './csp.ts';

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
  /** The settings page policies depend on (the map's tile host, the demo video's host). */
  policy: PolicySettings;
}

/**
 * What Netlify does in production, for local runs: the API at its paths, the pre-rendered
 * pages and assets with the headers of site-config.ts (on Netlify, the dist/_headers the build
 * writes from them) and netlify.toml's redirects, and the 404 page with status 404.
 */
export function createStaticSite({ distDir, api, policy }: StaticSiteOptions) {
  const root = path.resolve(distDir);
  const site = new Hono();
  const notFound = path.join(root, '404.html');
  const notFoundPages = new Set([notFound, path.join(root, '404', 'index.html')]);

  site.all('/api/*', (c) => api(c.req.raw, c.env));
  site.all('/uploads/*', (c) => api(c.req.raw, c.env));

  site.use('*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SITE_HEADERS)) {
      // HSTS only means something over HTTPS; the local server speaks plain HTTP.
      if (name === 'Strict-Transport-Security') continue;
      c.res.headers.set(name, value);
    }
    // Pages (the 404 page included) get their own policy, as Netlify's _headers rules give them.
    if (c.res.headers.get('Content-Type')?.startsWith('text/html')) {
      for (const [name, value] of Object.entries(pageHeaders(c.req.path, policy))) c.res.headers.set(name, value);
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
      return sendFile(shell, PAGE_CACHE, rewrite.status, c.req.header('accept-encoding'));
    });
  }

  site.on(['GET', 'HEAD'], '*', async (c) => {
    // c.req.path is already decoded; decoding again would turn "%25" into a traversal or throw.
    const file = await resolveFile(root, c.req.path);
    // /404 and /404.html resolve to the not-found page itself: it is never a page that exists.
    if (file && !notFoundPages.has(file)) {
      const cacheControl = c.req.path.startsWith(IMMUTABLE_ASSET_PREFIX) ? IMMUTABLE_CACHE : pageCache(c.req.path);
      return sendFile(file, cacheControl, 200, c.req.header('accept-encoding'));
    }
    return sendFile(notFound, PAGE_CACHE, 404, c.req.header('accept-encoding'));
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

/** Text files are sent compressed, as the CDN does; photos, fonts and video are already compressed. */
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.xml', '.txt', '.svg', '.webmanifest']);
const MAX_CACHED_BYTES = 2 * 1024 * 1024;

/**
 * Compressed bodies, made once per file version (its path, size and modification time) at
 * gzip's best level, as a CDN keeps them: compressing a page on every request costs the first
 * byte tens of milliseconds on a busy machine, and the build is small (about 1 MB of text).
 */
const gzipped = new Map<string, { version: string; body: Uint8Array<ArrayBuffer> }>();

async function gzippedBody(file: string, version: string): Promise<Uint8Array<ArrayBuffer>> {
  const cached = gzipped.get(file);
  if (cached?.version === version) return cached.body;
  const body = new Uint8Array(gzipSync(await readFile(file), { level: 9 }));
  gzipped.set(file, { version, body });
  return body;
}

async function sendFile(file: string, cacheControl: string, status: 200 | 404, acceptEncoding = ''): Promise<Response> {
  const info = await stat(file);
  const extension = path.extname(file).toLowerCase();
  const type = CONTENT_TYPES[extension] ?? 'application/octet-stream';
  const headers: Record<string, string> = { 'Content-Type': type, 'Cache-Control': cacheControl };
  if (COMPRESSIBLE.has(extension) && info.size <= MAX_CACHED_BYTES) {
    headers.Vary = 'Accept-Encoding';
    if (/\bgzip\b/.test(acceptEncoding)) {
      const body = await gzippedBody(file, `${info.size}:${info.mtimeMs}`);
      return new Response(body, { status, headers: { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': String(body.byteLength) } });
    }
  }
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream;
  return new Response(body, { status, headers: { ...headers, 'Content-Length': String(info.size) } });
}
