/** Display helpers for the admin tables (UK dates and pounds). */
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const INSTANT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' });
const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 2, minimumFractionDigits: 0 });
const LONDON_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/** A calendar date 'YYYY-MM-DD' as '20 Jul 2027'. */
export const formatDay = (isoDate: string) => DAY.format(new Date(`${isoDate}T00:00:00Z`));
/** An instant in UK time. */
export const formatInstant = (iso: string) => INSTANT.format(new Date(iso));
export const formatMoney = (pounds: number) => POUNDS.format(pounds);
/** Today in the UK as 'YYYY-MM-DD' (en-CA writes dates that way). */
export const londonTodayIso = (now = new Date()) => LONDON_DAY.format(now);
