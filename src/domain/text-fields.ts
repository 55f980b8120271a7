import * as z from './zod.ts';
import { cleanMultiLine, cleanOneLine } from './text.ts';

/**
 * The zod pieces every public form's text fields are built from, so each one is cleaned the same
 * way (text.ts) before it is checked: one-line fields (names, phone, e-mail, addresses) lose line
 * breaks, controls, bidi controls and zero-width characters; multi-line fields (messages, reviews,
 * instructions) keep "\n" and lose the rest. Cleaning first means a name of only invisible
 * characters is a blank name, and a stored value can never forge a log line or an e-mail header.
 */
export function tooLong(label: string, max: number): string {
  return `${label} must be ${max} characters or fewer`;
}

/** A one-line field that must not be blank once cleaned. */
export function requiredOneLine(message: string, label: string, max: number) {
  return z
    .string({ error: message })
    .overwrite(cleanOneLine)
    .min(1, { error: message, abort: true })
    .max(max, { error: tooLong(label, max) });
}

/** A one-line field; `error` is the message for a value that is not text. */
export function oneLine(error: string) {
  return z.string({ error }).overwrite(cleanOneLine);
}

/** A multi-line field; `error` is the message for a value that is not text. */
export function multiLine(error?: string) {
  return z.string(error ? { error } : undefined).overwrite(cleanMultiLine);
}
