/**
 * Sound and vibration per verdict (UX "Door mode"): a short high tone and one 250 ms buzz for
 * OK; a low tone and two short buzzes for refusals; a distinct two-note "attention" tone for
 * AGAIN. Muting (sound only) is remembered on the device.
 */
import { isAdmitted } from '../../../shared/checkin-rules';
import type { DoorVerdict } from '../scan-decision';

const MUTE_KEY = 'svc-door-muted';

export function readMuted(): boolean {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

export function writeMuted(muted: boolean): void {
  try {
    localStorage.setItem(MUTE_KEY, muted ? '1' : '0');
  } catch {
    // private mode: the choice lasts for this visit only
  }
}

export const VIBRATION: Record<'ok' | 'again' | 'refused', number[]> = {
  ok: [250],
  again: [250, 100, 250],
  refused: [100, 50, 100],
};

/** [frequency Hz, start s, length s] */
const TONES: Record<'ok' | 'again' | 'refused', Array<[number, number, number]>> = {
  ok: [[1320, 0, 0.12]],
  again: [
    [880, 0, 0.12],
    [660, 0.15, 0.18],
  ],
  refused: [[220, 0, 0.35]],
};

let audio: AudioContext | null = null;

/** Creates or wakes the audio context; call it from a user gesture (browsers require one). */
export function unlockAudio(): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
  } catch {
    audio = null;
  }
}

function kindOf(verdict: DoorVerdict): 'ok' | 'again' | 'refused' {
  // "still loading" asks for attention (scan again), like AGAIN: it refuses nobody
  return verdict === 'ok' ? 'ok' : verdict === 'loading' || isAdmitted(verdict) ? 'again' : 'refused';
}

export function playFeedback(verdict: DoorVerdict, muted: boolean): void {
  const kind = kindOf(verdict);
  // muting silences the tones; the buzz is silent anyway and tells staff without looking
  navigator.vibrate?.(VIBRATION[kind]);
  if (muted || !audio || audio.state !== 'running') return;
  const t0 = audio.currentTime;
  for (const [freq, start, length] of TONES[kind]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = kind === 'refused' ? 'square' : 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + start);
    gain.gain.exponentialRampToValueAtTime(0.3, t0 + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(t0 + start);
    osc.stop(t0 + start + length + 0.02);
  }
}
