import type { QueueStore, QueuedItem } from './crew-queue.ts';
import { memoryStore } from './crew-queue.ts';

// The crew queue on the phone's disk: IndexedDB keeps Blobs (the photos) as they are, survives a
// closed tab and a phone restart, and needs no library. One database: the queue by id, and the
// link the phone holds now ('meta', key 'link'), which the service worker's Background Sync sends
// the queue with when the page is closed (public/crew-sw.js reads both stores).

const DB_NAME = 'clean-patch-crew';
const STORE = 'queue';
const META = 'meta';

/** The link the phone holds now, with its London day and worker once the day has loaded. */
export interface HeldLink {
  token: string;
  day: string | null;
  worker: string | null;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open(): Promise<IDBDatabase> {
  const req = indexedDB.open(DB_NAME, 2);
  req.onupgradeneeded = () => {
    const db = req.result;
    if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
    if (!db.objectStoreNames.contains(META)) db.createObjectStore(META);
  };
  return request(req);
}

export interface CrewStore extends QueueStore {
  saveLink(link: HeldLink | null): Promise<void>;
}

/** IndexedDB when the browser allows it, else memory (the queue then lasts as long as the tab). */
export async function openQueueStore(): Promise<CrewStore> {
  let db: IDBDatabase;
  try {
    db = await open();
  } catch {
    return { ...memoryStore(), saveLink: async () => {} };
  }
  const run = async <T>(name: string, mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const tx = db.transaction(name, mode);
    const result = await request(work(tx.objectStore(name)));
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    return result;
  };
  return {
    all: () => run(STORE, 'readonly', (store) => store.getAll() as IDBRequest<QueuedItem[]>),
    put: async (item) => void (await run(STORE, 'readwrite', (store) => store.put(item))),
    delete: async (id) => void (await run(STORE, 'readwrite', (store) => store.delete(id))),
    saveLink: async (link) => {
      if (link) await run(META, 'readwrite', (store) => store.put(link, 'link'));
      else await run(META, 'readwrite', (store) => store.delete('link'));
    },
  };
}
