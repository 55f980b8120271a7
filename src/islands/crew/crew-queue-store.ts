import type { QueueStore, QueuedItem } from './crew-queue.ts';
import { memoryStore } from './crew-queue.ts';

// The crew queue on the phone's disk: IndexedDB keeps Blobs (the photos) as they are, survives a
// closed tab and a phone restart, and needs no library. One database, one object store by id.

const DB_NAME = 'clean-patch-crew';
const STORE = 'queue';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open(): Promise<IDBDatabase> {
  const req = indexedDB.open(DB_NAME, 1);
  req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'id' });
  return request(req);
}

/** IndexedDB when the browser allows it, else memory (the queue then lasts as long as the tab). */
export async function openQueueStore(): Promise<QueueStore> {
  let db: IDBDatabase;
  try {
    db = await open();
  } catch {
    return memoryStore();
  }
  const run = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const tx = db.transaction(STORE, mode);
    const result = await request(work(tx.objectStore(STORE)));
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    return result;
  };
  return {
    all: () => run('readonly', (store) => store.getAll() as IDBRequest<QueuedItem[]>),
    put: async (item) => void (await run('readwrite', (store) => store.put(item))),
    delete: async (id) => void (await run('readwrite', (store) => store.delete(id))),
  };
}
