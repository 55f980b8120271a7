import { z } from 'zod';

/**
 * zod for code that also runs in the browser: import `z` from here, not from 'zod'. Zod compiles
 * object parsers with `new Function` when it may; to find out, it tries once, and under this site's
 * Content Security Policy (no 'unsafe-eval') the browser reports that try as a violation even
 * though zod catches it. Jitless mode skips the try. It must be set before the first object schema
 * is built, which importing `z` from this module guarantees. The server keeps the faster parsers.
 */
if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
