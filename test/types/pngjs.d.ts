/** The part of pngjs (a dependency of qrcode) the tests read PNGs with; it ships no types. */
declare module 'pngjs' {
  export const PNG: {
    sync: { read(buffer: Buffer): { width: number; height: number; data: Buffer } };
  };
}
