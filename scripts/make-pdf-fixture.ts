// Writes tests/fixtures/stencil-proof.pdf: a one-page vector stencil proof as a design tool
// exports it (paths, a standard font, a second page the preview ignores), so the proof tests
// render a real PDF. Run with `npx tsx scripts/make-pdf-fixture.ts`; the output is committed.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildPdf } from '../tests/fixtures/pdf.ts';

const OUT = path.resolve('tests/fixtures/stencil-proof.pdf');

/** Page 1: the stencil's outline, a flower and the business name, 900 x 600 mm drawn at 1:3.78. */
const PAGE_ONE = [
  '1 1 1 rg 0 0 680 454 re f',
  // The stencil sheet and its cut line.
  '0.93 0.95 0.93 rg 40 40 600 374 re f',
  '0.1 0.35 0.25 RG 3 w [12 6] 0 d 40 40 600 374 re S [] 0 d',
  // A flower: a stem, then five petals around a centre.
  '0.1 0.35 0.25 rg 196 90 8 120 re f',
  '0.86 0.29 0.47 rg',
  ...[0, 72, 144, 216, 288].map((degrees) => {
    const radians = (degrees * Math.PI) / 180;
    const x = 200 + Math.cos(radians) * 48;
    const y = 250 + Math.sin(radians) * 48;
    return `${circle(x, y, 40)} f`;
  }),
  `0.96 0.78 0.2 rg ${circle(200, 250, 30)} f`,
  // The business name and the stencil's size, in Helvetica (a standard font).
  'BT /F1 44 Tf 0.1 0.35 0.25 rg 300 260 Td (Hartley) Tj 0 -50 Td (Florist) Tj ET',
  'BT /F1 16 Tf 0.3 0.3 0.3 rg 300 120 Td (Stencil 900 x 600 mm) Tj ET',
].join('\n');

const PAGE_TWO = 'BT /F1 18 Tf 0 0 0 rg 60 380 Td (Cutting notes: page 2) Tj ET';

/** A circle as four Bezier curves (PDF has no circle operator). */
function circle(cx: number, cy: number, r: number): string {
  const k = r * 0.5523;
  const f = (n: number) => n.toFixed(2);
  return [
    `${f(cx + r)} ${f(cy)} m`,
    `${f(cx + r)} ${f(cy + k)} ${f(cx + k)} ${f(cy + r)} ${f(cx)} ${f(cy + r)} c`,
    `${f(cx - k)} ${f(cy + r)} ${f(cx - r)} ${f(cy + k)} ${f(cx - r)} ${f(cy)} c`,
    `${f(cx - r)} ${f(cy - k)} ${f(cx - k)} ${f(cy - r)} ${f(cx)} ${f(cy - r)} c`,
    `${f(cx + k)} ${f(cy - r)} ${f(cx + r)} ${f(cy - k)} ${f(cx + r)} ${f(cy)} c`,
  ].join(' ');
}

const pdf = buildPdf(
  [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 680 454] /Resources << /Font << /F1 7 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 680 454] /Resources << /Font << /F1 7 0 R >> >> /Contents 6 0 R >>',
    { dictionary: '', stream: PAGE_ONE },
    { dictionary: '', stream: PAGE_TWO },
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    '<< /Title (Hartley Florist stencil proof) /Producer (scripts/make-pdf-fixture.ts) >>',
  ],
  8,
);

await writeFile(OUT, pdf);
console.log(`Wrote ${OUT} (${pdf.length} bytes)`);
