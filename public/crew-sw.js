/*
 * The crew page's service worker (scope /crew only: registered by src/islands/crew/crew-offline.ts).
 * A crew reopens the link from the 6 PM e-mail at a site with no signal, after the phone closed the
 * tab: this worker keeps the page's shell (the HTML of /crew and the scripts, styles and fonts it
 * loaded) so the page opens, and the page shows the last copy of the day and the queue it keeps on
 * the phone. It caches nothing from /api: the crew's answers (customers' names and addresses) stay
 * with the page, tied to the link they were loaded with, and go when the link ends. Map tiles the
 * page drew are kept (a bounded number) so the map shows what it already loaded.
 *
 * With Background Sync, the queue is also sent from here when the signal returns, even with the page
 * closed: the same rules as the page's queue (src/islands/crew/crew-queue.ts), one item at a time in
 * the order they were made, each with its own Idempotency-Key, removed only once the server has it.
 * Public pages register no service worker; this file is served without the pages' policy, and the
 * /crew page's policy allows worker-src and manifest-src 'self' (src/server/csp.ts).
 */

const VERSION = 'crew-v1';
const SHELL_CACHE = `${VERSION}-shell`;
const TILE_CACHE = `${VERSION}-tiles`;
const SHELL_KEY = '/crew';
const MAX_TILES = 400;
const SYNC_TAG = 'crew-queue';
const DB_NAME = 'clean-patch-crew';

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      const response = await fetch(SHELL_KEY, { cache: 'no-store', credentials: 'same-origin' });
      if (response.ok) {
        const html = await response.clone().text();
        await cache.put(SHELL_KEY, response);
        // The scripts and styles the shell names; the ones they import are cached as the page loads them.
        const assets = [...new Set(html.match(/\/_astro\/[\w.@-]+\.(?:js|css)/g) ?? [])];
        await Promise.all(assets.map((asset) => cache.add(asset).catch(() => undefined)));
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (!key.startsWith(VERSION)) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

/** A cached response without its `redirected` mark, which a navigation may not be answered with. */
async function plain(response) {
  if (!response.redirected) return response;
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function navigate(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const cache = await caches.open(SHELL_CACHE);
      await cache.put(SHELL_KEY, await plain(response.clone()));
    }
    return response;
  } catch (error) {
    const cached = await caches.match(SHELL_KEY, { cacheName: SHELL_CACHE, ignoreVary: true });
    if (cached) return plain(cached);
    throw error;
  }
}

/**
 * Fingerprinted assets never change: the cached copy wins; a new one is kept on the way. The
 * server varies them on Accept-Encoding, which the cache cannot compare across requests, and a
 * failed module import is retried with ?astro-retry=: both are the same file.
 */
async function asset(request) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(request, { ignoreVary: true, ignoreSearch: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** A map tile: the network first (tiles change), else the copy from an earlier visit. */
async function tile(request) {
  const cache = await caches.open(TILE_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok || response.type === 'opaque') {
      await cache.put(request, response.clone());
      const keys = await cache.keys();
      for (const old of keys.slice(0, Math.max(0, keys.length - MAX_TILES))) await cache.delete(old);
    }
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

/** The page names what it loaded before this worker controlled it (its scripts' imports, the map's styles). */
self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type !== 'cache-assets' || !Array.isArray(data.urls)) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      for (const href of data.urls.slice(0, 200)) {
        const url = new URL(href, self.location.origin);
        if (url.origin !== self.location.origin || !/^\/(_astro|fonts|icons)\//.test(url.pathname)) continue;
        if (!(await cache.match(url.pathname, { ignoreVary: true }))) await cache.add(url.pathname).catch(() => undefined);
      }
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  const sameOrigin = url.origin === self.location.origin;
  if (request.mode === 'navigate' && sameOrigin && /^\/crew\/?$/.test(url.pathname)) {
    event.respondWith(navigate(request));
  } else if (sameOrigin && (url.pathname.startsWith('/_astro/') || url.pathname.startsWith('/fonts/') || url.pathname.startsWith('/icons/'))) {
    event.respondWith(asset(request));
  } else if (!sameOrigin && request.destination === 'image') {
    event.respondWith(tile(request));
  }
  // Everything else, /api above all, goes to the network untouched.
});

/* ---- Background Sync: the queue, sent with the page closed ---- */

function idb(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function openQueue() {
  // The page creates the database (crew-queue-store.ts); the worker only reads and updates it.
  const db = await idb(indexedDB.open(DB_NAME));
  if (!db.objectStoreNames.contains('queue') || !db.objectStoreNames.contains('meta')) {
    db.close();
    return null;
  }
  const run = (store, mode, work) =>
    new Promise((resolve, reject) => {
      const tx = db.transaction(store, mode);
      const request = work(tx.objectStore(store));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  return {
    db,
    items: () => run('queue', 'readonly', (store) => store.getAll()),
    link: () => run('meta', 'readonly', (store) => store.get('link')),
    put: (item) => run('queue', 'readwrite', (store) => store.put(item)),
    remove: (id) => run('queue', 'readwrite', (store) => store.delete(id)),
  };
}

/** The body of one queued item, as the page sends it (crew-api.ts sendQueued). */
function requestOf(item, token) {
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}`, 'Idempotency-Key': item.id };
  if (item.action !== 'photo') {
    return {
      url: `/api/crew/stops/${item.bookingId}/${item.action}`,
      init: { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ tappedAt: new Date(item.createdAt).toISOString() }) },
    };
  }
  const body = new FormData();
  body.set('photo', item.photo, `${item.photoType}.jpg`);
  if (item.thumbnail) body.set('thumbnail', item.thumbnail, `${item.photoType}-thumb.jpg`);
  body.set('photoType', item.photoType || 'before');
  body.set('takenAt', item.takenAt || new Date(item.createdAt).toISOString());
  if (item.position) {
    body.set('lat', String(item.position.lat));
    body.set('lng', String(item.position.lng));
    body.set('accuracy', String(Math.round(item.position.accuracy)));
  }
  return { url: `/api/crew/stops/${item.bookingId}/photos`, init: { method: 'POST', headers, body } };
}

async function sendQueue() {
  const queue = await openQueue();
  if (!queue) return;
  try {
    const link = await queue.link();
    const items = (await queue.items()).filter((item) => !item.problem).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    for (const item of items) {
      // Made under an earlier link of the same day: sent with the link the phone holds now.
      const sameDay = link && link.day && item.day === link.day && link.worker === (item.worker || null);
      const token = link && link.token && (item.token === link.token || !item.day || sameDay) ? link.token : item.token;
      const { url, init } = requestOf(item, token);
      const response = await fetch(url, init); // no signal: throws, and the browser tries the sync again
      if (response.ok) {
        await queue.remove(item.id);
        continue;
      }
      // Busy or refused for now, or the link ended: everything stays on the phone for the page.
      if (response.status === 408 || response.status === 429 || response.status >= 500) throw new Error(`Server answered ${response.status}`);
      if (response.status === 410 || response.status === 404 || response.status === 403) break;
      const { error } = await response.json().catch(() => ({ error: `Server answered ${response.status}` }));
      await queue.put({ ...item, attempts: item.attempts + 1, problem: { status: response.status, reason: error } });
    }
  } finally {
    queue.db.close();
    for (const client of await self.clients.matchAll({ type: 'window' })) client.postMessage({ type: 'crew-queue-changed' });
  }
}

self.addEventListener('sync', (event) => {
  if (event.tag === SYNC_TAG) event.waitUntil(sendQueue());
});
