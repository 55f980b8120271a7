import { config } from 'zod';

/**
 * zod for code that also runs in the browser: `import * as z from '…/domain/zod.ts'`, not from
 * 'zod'. Zod compiles object parsers with `new Function` when it may; to find out, it tries once,
 * and under this site's Content Security Policy (no 'unsafe-eval') the browser reports that try
 * as a violation even though zod catches it. Jitless mode skips the try. It must be set before
 * the first object schema is built, which importing from this module guarantees. The server
 * keeps the faster parsers.
 *
 * Everything is re-exported and imported as a namespace (`import * as z`), as zod's own guide
 * advises: a bundler then keeps only the parts used. Through a `z` object (`import { z }`) it
 * cannot tell, and keeps all 64 of zod's message locales: 400 KB of the API function's bundle.
 */
if (typeof document !== 'undefined') config({ jitless: true });

export * from 'zod';
