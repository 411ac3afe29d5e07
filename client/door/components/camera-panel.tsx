import { createSignal, onCleanup, Show, type JSX } from 'solid-js';
import { doorState } from '../state';
import type { CameraHint, CameraScanner } from '../scanner/camera';
import { unlockAudio } from '../scanner/feedback';
import { FormError } from '../../ui/form-error';

const HINTS: Record<Exclude<CameraHint, 'none'>, string> = {
  'no-code': 'Hold the code steady, a little further away — or type the code.',
  stalled: 'The camera stalled: no picture is coming from it.',
};

/**
 * Camera first, never camera only: the scanner chunk loads when this button is first pressed.
 * While it is open the volunteer is told when nothing is being read (and what to do), and can
 * switch the torch (where the camera has one) and between the back and front cameras.
 */
export function CameraPanel(props: { disabled: boolean }): JSX.Element {
  const door = doorState();
  const [scanner, setScanner] = createSignal<CameraScanner | null>(null);
  const [opening, setOpening] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [hint, setHint] = createSignal<CameraHint>('none');
  const [facing, setFacing] = createSignal<'environment' | 'user'>('environment');
  const [torch, setTorch] = createSignal(false);
  let view!: HTMLDivElement;

  const open = async () => {
    unlockAudio();
    setOpening(true);
    setError(null);
    setHint('none');
    setTorch(false);
    try {
      const { openCamera } = await import('../scanner/camera');
      setScanner(await openCamera(view, { facingMode: facing(), onCode: (text) => void door.scanCode(text, 'scan'), onHint: setHint }));
    } catch (err) {
      console.warn('[svc] camera', err);
      const name = (err as { name?: string } | null)?.name;
      setError(
        name === 'NotAllowedError'
          ? 'The camera is not allowed for this site. Allow it in the browser settings, or use the code field or name search below.'
          : 'The camera could not be opened. Use the code field or name search below.',
      );
    } finally {
      setOpening(false);
    }
  };
  const close = async () => {
    const s = scanner();
    setScanner(null);
    setHint('none');
    await s?.stop();
  };
  const reopen = async () => {
    await close();
    await open();
  };
  const switchCamera = async () => {
    setFacing(facing() === 'environment' ? 'user' : 'environment');
    await reopen();
  };
  const toggleTorch = async () => {
    const next = !torch();
    try {
      await scanner()?.setTorch(next);
      setTorch(next);
    } catch (err) {
      console.warn('[svc] torch', err);
    }
  };
  onCleanup(() => void scanner()?.stop());

  return (
    <section class="door-camera" aria-label="Camera scanner">
      <Show
        when={scanner()}
        fallback={
          <button
            type="button"
            class="button door-big-button"
            onClick={() => void open()}
            aria-disabled={opening() || props.disabled}
            disabled={props.disabled}
          >
            {opening() ? 'Opening camera…' : 'Scan with camera'}
          </button>
        }
      >
        {(s) => (
          <div class="door-camera-controls">
            <button type="button" class="button button-quiet door-big-button" onClick={() => void close()}>
              Close camera
            </button>
            <Show when={s().hasTorch()}>
              <button type="button" class="button button-quiet" aria-pressed={torch()} onClick={() => void toggleTorch()}>
                Torch
              </button>
            </Show>
            <button type="button" class="button button-quiet" onClick={() => void switchCamera()}>
              {facing() === 'environment' ? 'Front camera' : 'Back camera'}
            </button>
          </div>
        )}
      </Show>
      {/* The camera fills this box; the decoder reads whole frames, whatever size the box is shown at. */}
      <div ref={view} class="door-camera-view" classList={{ open: scanner() !== null || opening() }} />
      {/* present from the start, so a screen reader announces the hint when it appears */}
      <p class="door-camera-hint" role="status">
        {hint() === 'none' ? '' : HINTS[hint() as Exclude<CameraHint, 'none'>]}
      </p>
      <Show when={hint() === 'stalled'}>
        <button type="button" class="button" onClick={() => void reopen()}>
          Reopen camera
        </button>
      </Show>
      <FormError message={error()} />
    </section>
  );
}
