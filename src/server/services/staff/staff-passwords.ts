import { MIN_STAFF_PASSWORD_LENGTH } from '../../../domain/staff-roles.ts';

/**
 * The password rules for staff accounts (api.md "Staff accounts"; NIST SP 800-63B §5.1.1.2):
 * long enough, and not one of the 10 000 most common passwords nor a trivial one (a single
 * repeated character, the site's name, the person's own e-mail). No composition rules.
 */
export const PASSWORD_TOO_SHORT = `Use at least ${MIN_STAFF_PASSWORD_LENGTH} characters.`;
export const PASSWORD_TOO_COMMON = 'This password is one of the most common ones. Please choose another.';
/** Each refusal says its own reason, so the person knows what to change. */
export const PASSWORD_HAS_BUSINESS_NAME = "This password contains the business's name, which is the first thing anyone would try. Please choose another.";
export const PASSWORD_HAS_EMAIL_NAME = 'This password contains the name in your e-mail address, which is easy to guess. Please choose another.';
export const PASSWORD_TOO_SIMPLE = 'This password is one character repeated or a run of keys, which is easy to guess. Please choose another.';

let commonPasswords: Set<string> | undefined;

/** The list is loaded on first use, so a cold start that sets no password never parses it. */
async function loadCommonPasswords(): Promise<Set<string>> {
  commonPasswords ??= new Set((await import('./common-passwords.data.ts')).COMMON_PASSWORDS.split('\n'));
  return commonPasswords;
}

/** Null when the password may be used, else the message to show beside the field. */
export async function passwordProblem(password: string, context: { email?: string } = {}): Promise<string | null> {
  if ([...password].length < MIN_STAFF_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  const lower = password.toLowerCase();
  if (/^(.)\1+$/u.test(lower) || /^(?:0123456789|1234567890|abcdefghijkl|qwertyuiop)/u.test(lower)) return PASSWORD_TOO_SIMPLE;
  if (['cleanpatch', 'clean patch', 'clean-patch'].some((name) => lower.includes(name))) return PASSWORD_HAS_BUSINESS_NAME;
  const mailbox = context.email?.split('@')[0]?.toLowerCase() ?? '';
  if (mailbox.length >= 4 && lower.includes(mailbox)) return PASSWORD_HAS_EMAIL_NAME;
  const common = await loadCommonPasswords();
  // "password1234" is as weak as "password": a common password padded with digits or repeated.
  const core = lower.replace(/[\d\s!.?_-]+$/u, '').replace(/^[\d\s]+/u, '');
  if (common.has(lower) || common.has(core) || isRepeatOfCommon(lower, common)) return PASSWORD_TOO_COMMON;
  return null;
}

/** "passwordpassword" and "qwertyqwertyqwerty": a common password said twice or more. */
function isRepeatOfCommon(lower: string, common: Set<string>): boolean {
  for (let size = 1; size <= lower.length / 2; size += 1) {
    if (lower.length % size !== 0) continue;
    const unit = lower.slice(0, size);
    if (unit.repeat(lower.length / size) === lower && common.has(unit)) return true;
  }
  return false;
}
