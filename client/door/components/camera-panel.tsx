import { createSignal, onCleanup, Show, type JSX } from 'solid-js';
import { doorState } from '../state';
import type { CameraHint, CameraScanner } from '../scanner/camera';
import { unlockAudio } from '../scanner/feedback';
import { FormError } from '../../ui/form-error';
import { t } from '../../i18n/i18n';

/** What the volunteer is told while nothing is read. */
function hintText(hint: CameraHint): string {
  if (hint === 'no-code') return t('door.camera.hint.noCode');
  if (hint === 'stalled') return t('door.camera.hint.stalled');
  return '';
}

/**
 * Camera first, never camera only: the scanner chunk loads when this button is first pressed.
 * While it is open the volunteer is told when nothing is being read (and what to do), and can
 * switch the torch (where the camera has one) and between the back and front cameras.
 */
export function CameraPanel(props: { disabled: boolean }): JSX.Element {
  const door = doorState();
  const [scanner, setScanner] = createSignal<CameraScanner | null>(null);
  const [opening, setOpening] = createSignal(false);
  const [failure, setFailure] = createSignal<'not_allowed' | 'failed' | null>(null);
  const error = () => {
    const f = failure();
    return f === null ? null : f === 'not_allowed' ? t('door.camera.error.notAllowed') : t('door.camera.error.failed');
  };
  const [hint, setHint] = createSignal<CameraHint>('none');
  const [facing, setFacing] = createSignal<'environment' | 'user'>('environment');
  const [torch, setTorch] = createSignal(false);
  let view!: HTMLDivElement;

  const open = async () => {
    unlockAudio();
    setOpening(true);
    setFailure(null);
    setHint('none');
    setTorch(false);
    try {
      const { openCamera } = await import('../scanner/camera');
      setScanner(await openCamera(view, { facingMode: facing(), onCode: (text) => void door.scanCode(text, 'scan'), onHint: setHint }));
    } catch (err) {
      console.warn('[svc] camera', err);
      const name = (err as { name?: string } | null)?.name;
      setFailure(name === 'NotAllowedError' ? 'not_allowed' : 'failed');
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
    <section class="door-camera" aria-label={t('door.camera.label')}>
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
            {opening() ? t('door.camera.opening') : t('door.camera.open')}
          </button>
        }
      >
        {(s) => (
          <div class="door-camera-controls">
            <button type="button" class="button button-quiet door-big-button" onClick={() => void close()}>
              {t('door.camera.close')}
            </button>
            <Show when={s().hasTorch()}>
              <button type="button" class="button button-quiet" aria-pressed={torch()} onClick={() => void toggleTorch()}>
                {t('door.camera.torch')}
              </button>
            </Show>
            <button type="button" class="button button-quiet" onClick={() => void switchCamera()}>
              {facing() === 'environment' ? t('door.camera.front') : t('door.camera.back')}
            </button>
          </div>
        )}
      </Show>
      {/* The camera fills this box; the decoder reads whole frames, whatever size the box is shown at. */}
      <div ref={view} class="door-camera-view" classList={{ open: scanner() !== null || opening() }} />
      {/* present from the start, so a screen reader announces the hint when it appears */}
      <p class="door-camera-hint" role="status">
        {hintText(hint())}
      </p>
      <Show when={hint() === 'stalled'}>
        <button type="button" class="button" onClick={() => void reopen()}>
          {t('door.camera.reopen')}
        </button>
      </Show>
      <FormError message={error()} />
    </section>
  );
}
