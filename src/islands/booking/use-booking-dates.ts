import { useEffect, useState, type RefObject } from 'react';
import { api } from '../shared/api.ts';
import { showToast } from '../shared/toast-store.ts';
import { latestBookingDate } from '../../domain/booking-horizon.ts';
import { $values, DATE_UNAVAILABLE, earliestBookingDate, isDateUnavailable, localIsoDate, parseUnavailableDates, setField } from './booking-store.ts';

/**
 * The date field's bounds and the server's list of full and closed days. The bounds are worked
 * out after hydration so the server-rendered HTML never carries a stale build-day date.
 * `clearedFullDate` is set when a date already in the field turns out to be full, so the field
 * can say why it is empty.
 */
export function useBookingDates(clearedFullDate: RefObject<boolean>) {
  const [unavailableDates, setUnavailableDates] = useState<string[]>([]);
  const [minDate, setMinDate] = useState<string | undefined>(undefined);
  const [maxDate, setMaxDate] = useState<string | undefined>(undefined);
  useEffect(() => {
    setMinDate(earliestBookingDate(new Date()));
    setMaxDate(latestBookingDate(localIsoDate(new Date())));
    const controller = new AbortController();
    api<unknown>('/api/bookings/unavailable-dates', { signal: controller.signal })
      .then((answer) => {
        const dates = parseUnavailableDates(answer);
        setUnavailableDates(dates);
        // A date typed (or restored from a draft) before the list arrived is treated as if it
        // had just been picked: emptied, with the same toast and the field saying why.
        if (isDateUnavailable($values.get().preferredDate, dates)) {
          clearedFullDate.current = true;
          setField('preferredDate', '');
          showToast({ ...DATE_UNAVAILABLE, variant: 'destructive' });
        }
      })
      .catch(() => {
        /* The list defaults to empty (§7); the server still refuses a full date with 409. */
      });
    return () => controller.abort();
  }, [clearedFullDate]);
  return { unavailableDates, setUnavailableDates, minDate, maxDate };
}
