import { getEnv } from '../../src/server/env.ts';
import { createPreviewHandler } from '../../src/server/providers/pdf-preview-function.ts';
import { renderPdfFirstPage } from '../../src/server/services/files/pdf-preview.ts';

/**
 * A PDF stencil proof's first page as an image, for the API function (services/proofs/
 * proof-preview.ts through providers/pdf-preview-function.ts): pdf.js and @napi-rs/canvas (a
 * native Skia binary, 36 MB) live here only, so the API function, which answers every visitor,
 * carries none of it. Called once per PDF proof staff upload, with a signed request; it reads
 * no database and stores nothing.
 */
const handle = createPreviewHandler(getEnv(), renderPdfFirstPage);

export default (request: Request) => handle(request);

// No `config.path`: it answers at its default address, /.netlify/functions/proof-preview
// (PROOF_PREVIEW_FUNCTION_PATH), and only to requests signed by this site.
