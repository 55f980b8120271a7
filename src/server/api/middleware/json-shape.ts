/**
 * Checks raw JSON text before anything recursive touches it. JSON.parse, zod and the request
 * fingerprint all walk the value recursively: `[` × 5000 (5 KB, far under the body limit) would
 * overflow the stack and answer 500. No form or webhook of ours nests deeper than a few levels.
 */
export const MAX_JSON_DEPTH = 32;

export interface JsonTextShape {
  /** True once the nesting passes maxDepth; the scan stops there. */
  isTooDeep: boolean;
  /** A `\u0000` escape inside a string: PostgreSQL cannot store U+0000 in text. */
  hasNul: boolean;
}

/**
 * One pass over the text, counting brackets outside strings. It does not validate the JSON
 * (JSON.parse does that next); malformed text only has to be scanned safely.
 */
export function inspectJsonText(text: string, maxDepth = MAX_JSON_DEPTH): JsonTextShape {
  let depth = 0;
  let hasNul = false;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c /* \ */) {
        if (text.charCodeAt(index + 1) === 0x75 /* u */ && /^0000$/.test(text.slice(index + 2, index + 6))) {
          hasNul = true;
        }
        index++; // the escaped character, whatever it is, cannot end the string
      } else if (char === 0x22 /* " */) {
        inString = false;
      }
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      depth++;
      if (depth > maxDepth) return { isTooDeep: true, hasNul };
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) {
      depth--;
    }
  }
  return { isTooDeep: false, hasNul };
}
