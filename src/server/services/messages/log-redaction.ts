/**
 * Logs must never hold secrets: the Logs tab shows them to anyone signed in, and they are kept
 * far longer than any token lives. This guard runs inside writeChannelLog, so a careless caller
 * cannot leak a password, a token, a one-time code or a card number into the table.
 */
export const REDACTED = '[redacted]';

// A key is secret when one of its words (camelCase, snake_case, kebab-case) is one of these:
// password, newPassword, api_token, clientSecret, totpCode, cardNumber... but not postcode.
const SECRET_WORDS = new Set(['password', 'passwd', 'passphrase', 'token', 'secret', 'code', 'otp', 'totp', 'card', 'pan', 'cvc', 'cvv', 'pin', 'authorization', 'cookie', 'apikey']);

export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => SECRET_WORDS.has(word)) || SECRET_WORDS.has(key.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

// A card-like run: 13 to 19 digits, optionally split by single spaces or dashes (4242 4242 ...).
const CARD_LIKE = /\b\d(?:[ -]?\d){12,18}\b/g;

/** The text with every card-like digit run replaced. */
export function redactText(text: string): string {
  return text.replace(CARD_LIKE, REDACTED);
}

/** A deep copy with secret-named keys' values replaced and card-like runs removed from strings. */
export function redactMetadata(value: unknown, depth = 0): unknown {
  // Metadata is small; the depth cap only guards against a pathological object.
  if (depth > 8) return REDACTED;
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map((item) => redactMetadata(item, depth + 1));
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      copy[key] = isSecretKey(key) ? REDACTED : redactMetadata(item, depth + 1);
    }
    return copy;
  }
  return value;
}
