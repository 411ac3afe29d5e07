import { createSignal, onCleanup, Show, type JSX } from 'solid-js';
import { doorState } from '../state';
import type { CameraScanner } from '../scanner/camera';
import { unlockAudio } from '../scanner/feedback';
import { FormError } from '../../ui/form-error';

/** Camera first, never camera only: the scanner chunk loads when this button is first pressed. */
export function CameraPanel(props: { disabled: boolean }): JSX.Element {
  const door = doorState();
  const [scanner, setScanner] = createSignal<CameraScanner | null>(null);
  const [opening, setOpening] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  let view!: HTMLDivElement;

  const open = async () => {
    unlockAudio();
    setOpening(true);
    setError(null);
    try {
      const { openCamera } = await import('../scanner/camera');
      setScanner(await openCamera(view, (text) => void door.scanCode(text, 'scan')));
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
    await s?.stop();
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
        <button type="button" class="button button-quiet door-big-button" onClick={() => void close()}>
          Close camera
        </button>
      </Show>
      {/* Sized from the moment it opens: the decoder measures the view when the video starts
          playing, and a box that grew after that would make it read a cut-off part of each frame. */}
      <div ref={view} class="door-camera-view" classList={{ open: scanner() !== null || opening() }} />
      <FormError message={error()} />
    </section>
  );
}
