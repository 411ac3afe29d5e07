/**
 * The QR decoder under the camera: the browser's own BarcodeDetector when it reads QR codes
 * (Android Chrome, macOS Safari/Chrome), otherwise ZXing-C++ compiled to WebAssembly behind the
 * same BarcodeDetector interface (the `barcode-detector` package). Both read a whole camera frame
 * at its own resolution, so a ticket held at arm's length is still enough pixels
 * (docs/decisions, camera decoder). Imported only from camera.ts, which the door loads when the
 * camera first opens: neither the library nor its .wasm is in the app shell.
 *
 * The .wasm is part of our build and served by our server (and precached by the service
 * worker): the package's default would fetch it from a public CDN, which an offline door cannot reach.
 */
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

export type DecoderKind = 'native' | 'zxing-wasm';

export interface Decoder {
  kind: DecoderKind;
  /** The QR payloads in this frame (none is an empty list, not an error). */
  detect(source: HTMLVideoElement | HTMLCanvasElement | ImageBitmap | ImageData): Promise<string[]>;
}

interface DetectorLike {
  detect(source: unknown): Promise<Array<{ rawValue: string }>>;
}
interface DetectorClass {
  new (opts: { formats: string[] }): DetectorLike;
  getSupportedFormats(): Promise<readonly string[]>;
}

function wrap(kind: DecoderKind, detector: DetectorLike): Decoder {
  return {
    kind,
    async detect(source) {
      return (await detector.detect(source)).map((b) => b.rawValue);
    },
  };
}

/** The browser's BarcodeDetector, when it exists and reads QR codes; null otherwise. */
export async function nativeDecoder(): Promise<Decoder | null> {
  const Detector = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    const formats = await Detector.getSupportedFormats();
    return formats.includes('qr_code') ? wrap('native', new Detector({ formats: ['qr_code'] })) : null;
  } catch {
    return null;
  }
}

/**
 * Where the module finds its .wasm: our own asset. One object for the page's life — the package
 * keeps its compiled module while the overrides it was prepared with stay the same.
 */
const ZXING_OVERRIDES = {
  locateFile: (file: string, prefix: string) => (file.endsWith('.wasm') ? new URL(wasmUrl, location.href).href : prefix + file),
};

/**
 * ZXing-C++ (WebAssembly) behind the BarcodeDetector interface; the module is compiled (once a
 * page) before this answers, and each call answers a fresh detector on it.
 */
export async function wasmDecoder(): Promise<Decoder> {
  const { BarcodeDetector, prepareZXingModule, purgeZXingModule } = await import('barcode-detector/ponyfill');
  try {
    await prepareZXingModule({ overrides: ZXING_OVERRIDES, fireImmediately: true });
  } catch (err) {
    purgeZXingModule(); // the next camera open tries again rather than keep a failed load
    throw err;
  }
  return wrap('zxing-wasm', new BarcodeDetector({ formats: ['qr_code'] }));
}

/** The best decoder this browser has: its own, else ZXing-C++ in WebAssembly. */
export async function loadDecoder(): Promise<Decoder> {
  return (await nativeDecoder()) ?? (await wasmDecoder());
}
