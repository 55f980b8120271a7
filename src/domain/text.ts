/**
 * Text people type, cleaned once before it is checked or stored. What is removed can only hurt:
 * control characters break e-mails, CSV exports and logs; a line break in a one-line field can
 * forge a header line or a log line; bidi overrides make "gnp.exe" read as "exe.png"; zero-width
 * characters make a name that looks blank pass "required".
 */

// C0 controls except tab and line feed, DEL, and the C1 controls.
const CONTROLS_EXCEPT_TAB_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// U+202A-202E (embeddings and overrides) and U+2066-2069 (isolates); U+200E/200F (marks) too.
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Zero-width space, non-joiner, joiner, word joiner, invisible operators, BOM, Mongolian vowel separator.
const ZERO_WIDTH = /[\u180e\u200b-\u200d\u2060-\u2064\ufeff]/g;
const LINE_BREAKS = /\r\n?|[\u0085\u2028\u2029]/g;

/**
 * For one-line fields (names, phone, address, file names): any line break, tab or run of spaces
 * becomes one space, controls, bidi controls and zero-width characters go, and the ends are trimmed.
 */
export function cleanOneLine(value: string): string {
  return value
    .normalize('NFC')
    .replace(/[\t\n\r\v\f\u0085\u2028\u2029]+/g, ' ')
    .replace(CONTROLS_EXCEPT_TAB_NEWLINE, '')
    .replace(BIDI_CONTROLS, '')
    .replace(ZERO_WIDTH, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * For multi-line fields (special instructions): line breaks become "\n" and stay, as do tabs;
 * other controls and bidi controls go. Zero-width joiners stay: emoji sequences need them.
 */
export function cleanMultiLine(value: string): string {
  return value
    .normalize('NFC')
    .replace(LINE_BREAKS, '\n')
    .replace(CONTROLS_EXCEPT_TAB_NEWLINE, '')
    .replace(BIDI_CONTROLS, '')
    .trim();
}
