/**
 * The camera scanner. The browser's own BarcodeDetector when it reads QR codes (Android
 * Chrome, macOS); otherwise html5-qrcode, imported here only, so it is its own chunk and is
 * loaded when the camera first opens — never with the app shell.
 */

export interface CameraScanner {
  /** Which decoder runs: the browser's or html5-qrcode's. */
  kind: 'native' | 'html5-qrcode';
  stop(): Promise<void>;
}

interface NativeDetector {
  detect(source: CanvasImageSource): Promise<Array<{ rawValue: string }>>;
}
interface NativeDetectorClass {
  new (opts: { formats: string[] }): NativeDetector;
  getSupportedFormats(): Promise<string[]>;
}

async function nativeDetector(): Promise<NativeDetector | null> {
  const Detector = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Detector) return null;
  try {
    const formats = await Detector.getSupportedFormats();
    return formats.includes('qr_code') ? new Detector({ formats: ['qr_code'] }) : null;
  } catch {
    return null;
  }
}

const VIDEO_CONSTRAINTS: MediaTrackConstraints = { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 720 } };

async function startNative(container: HTMLElement, detector: NativeDetector, onCode: (text: string) => void): Promise<CameraScanner> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: VIDEO_CONSTRAINTS, audio: false });
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.setAttribute('aria-hidden', 'true');
  video.srcObject = stream;
  container.replaceChildren(video);
  await video.play();
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    try {
      if (video.readyState >= 2) for (const code of await detector.detect(video)) onCode(code.rawValue);
    } catch {
      // a frame the detector could not read; the next one may
    }
    if (!stopped) setTimeout(() => void tick(), 80);
  };
  void tick();
  return {
    kind: 'native',
    async stop() {
      stopped = true;
      for (const track of stream.getTracks()) track.stop();
      container.replaceChildren();
    },
  };
}

async function startHtml5Qrcode(container: HTMLElement, onCode: (text: string) => void): Promise<CameraScanner> {
  const { Html5Qrcode, Html5QrcodeSupportedFormats } = await import('html5-qrcode');
  if (!container.id) container.id = `camera-${Math.random().toString(36).slice(2)}`;
  const scanner = new Html5Qrcode(container.id, {
    verbose: false,
    formatsToSupport: [Html5QrcodeSupportedFormats.QR_CODE],
    useBarCodeDetectorIfSupported: false,
  });
  // html5-qrcode takes exactly one constraint key here; the resolution goes in videoConstraints
  await scanner.start(
    { facingMode: 'environment' },
    { fps: 12, videoConstraints: VIDEO_CONSTRAINTS },
    (text) => onCode(text),
    () => {},
  );
  return {
    kind: 'html5-qrcode',
    async stop() {
      try {
        await scanner.stop();
      } finally {
        scanner.clear();
      }
    },
  };
}

/** Opens the camera in `container` and calls `onCode` with every decoded QR payload. */
export async function openCamera(container: HTMLElement, onCode: (text: string) => void): Promise<CameraScanner> {
  const detector = await nativeDetector();
  return detector ? startNative(container, detector, onCode) : startHtml5Qrcode(container, onCode);
}
