// pdf.js ships no type declarations for its worker module; it is loaded for its message handler.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
