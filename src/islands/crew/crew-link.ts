import { useEffect, useState } from 'react';
import { isCrewDayOver } from '../../domain/crew.ts';
import { CREW_DAY_KEY, CREW_LINK_KEY } from '../shared/storage-keys.ts';
import { readLinkToken, withoutLinkToken } from '../tracking/tracking-api.ts';
import { registerCrewWorker, storedDayDate } from './crew-offline.ts';

/**
 * The phone keeps the day (customers' first names and addresses) and the link only while the
 * link can work: once the day is over, or the server says the link ended, both go. What waits in
 * the queue stays: it is the crew's work, sent once a new link comes or discarded by the crew.
 */
export function forgetCrewDay() {
  localStorage.removeItem(CREW_DAY_KEY);
  localStorage.removeItem(CREW_LINK_KEY);
}

/** What the page says once the day it showed is over (its stops are no longer on the phone). */
export const DAY_OVER = "This crew day is over, so its stops are no longer kept on this phone. Your next day comes with the office's e-mail.";
export const DAY_OVER_CHECK_MS = 60_000;

export function forgetEndedDay(now: Date) {
  const date = storedDayDate();
  if (date && isCrewDayOver(date, now)) forgetCrewDay();
}

export function useCrewToken(): string | null | undefined {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    forgetEndedDay(new Date());
    const fromLink = readLinkToken(window.location.search);
    if (fromLink) {
      const previous = localStorage.getItem(CREW_LINK_KEY);
      localStorage.setItem(CREW_LINK_KEY, fromLink);
      // A new link may be another worker's or another day's: the stops shown are only ever the
      // ones loaded with this link (readDayCopy checks), so the old copy goes.
      if (previous !== fromLink) localStorage.removeItem(CREW_DAY_KEY);
      window.history.replaceState(window.history.state, '', withoutLinkToken(window.location.href));
    }
    setToken(fromLink ?? localStorage.getItem(CREW_LINK_KEY));
    registerCrewWorker();
  }, []);
  return token;
}

