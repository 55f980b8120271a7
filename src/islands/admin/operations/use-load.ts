import { useCallback, useEffect, useRef, useState } from 'react';
import { adminApi as api } from '../admin-api.ts';

export type Load<T> = { state: 'loading' } | { state: 'error' } | { state: 'ready'; data: T };

/**
 * Loads an admin call's answer; the second value asks again (after a change or an error).
 * A new address or a retry after an error shows the loading state; asking again for the same
 * address keeps the answer on screen until the new one arrives, so a list does not blink
 * after every change.
 */
export function useLoad<T>(url: string): [Load<T>, () => void] {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const loadedUrl = useRef(url);
  useEffect(() => {
    let live = true;
    const isNewUrl = loadedUrl.current !== url;
    loadedUrl.current = url;
    setLoad((current) => (isNewUrl || current.state === 'error' ? { state: 'loading' } : current));
    api<T>(url)
      .then((data) => live && setLoad({ state: 'ready', data }))
      .catch(() => live && setLoad({ state: 'error' }));
    return () => {
      live = false;
    };
  }, [url, attempt]);
  return [load, useCallback(() => setAttempt((n) => n + 1), [])];
}
