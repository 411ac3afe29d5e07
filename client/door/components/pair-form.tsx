import { createSignal, onMount, type JSX } from 'solid-js';
import { doorState } from '../state';
import { pairingCodeFrom } from '../scanner/input';
import { trpcErrorCode } from '../../ui/trpc';
import { FormError } from '../../ui/form-error';

const MESSAGES: Record<string, string> = {
  network: 'The server could not be reached. Pairing needs a network once; check the connection and try again.',
  svc_pairing_code_invalid: 'That code is unknown, expired or already used. Ask an administrator for a new one.',
  svc_rate_limited: 'Too many attempts. Wait a minute and try again.',
  svc_invalid_param: 'Type the 8-character code shown to the administrator, like ABCD-EFGH.',
};

/** Pairs the device once with the administrator's code (typed, or from the QR link). */
export function PairForm(props: { initialCode: string | null }): JSX.Element {
  const door = doorState();
  const [code, setCode] = createSignal(props.initialCode ?? '');
  const [error, setError] = createSignal<string | null>(null);
  const [working, setWorking] = createSignal(false);

  const pair = async () => {
    const value = pairingCodeFrom(code()) ?? code().trim();
    if (working() || value === '') return;
    setWorking(true);
    setError(null);
    try {
      await door.pair(value);
    } catch (err) {
      const c = trpcErrorCode(err);
      setError(MESSAGES[c] ?? 'Pairing failed. Please try again.');
    } finally {
      setWorking(false);
    }
  };

  onMount(() => {
    if (props.initialCode) void pair();
  });

  return (
    <section aria-labelledby="pair-heading" class="door-pair">
      <h2 id="pair-heading">Pair this device</h2>
      <p>
        An administrator creates a door device and shows a pairing code or QR code. Scan the QR code with this phone’s camera, or type the code here. This needs
        a network once; after that the door works offline.
      </p>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          void pair();
        }}
      >
        <div class="field">
          <label for="pair-code">Pairing code</label>
          <input
            id="pair-code"
            name="code"
            autocomplete="off"
            autocapitalize="characters"
            spellcheck={false}
            placeholder="ABCD-EFGH"
            value={code()}
            onInput={(e) => setCode(e.currentTarget.value)}
            aria-describedby={error() ? 'pair-error' : undefined}
          />
        </div>
        <button type="submit" class="button" aria-disabled={working()}>
          {working() ? 'Pairing…' : 'Pair device'}
        </button>
        <FormError message={error()} id="pair-error" />
      </form>
    </section>
  );
}
