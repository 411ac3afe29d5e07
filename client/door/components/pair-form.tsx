import { createSignal, onMount, type JSX } from 'solid-js';
import { doorState } from '../state';
import { pairingCodeFrom } from '../scanner/input';
import { trpcErrorCode } from '../../ui/trpc';
import { FormError } from '../../ui/form-error';
import { t } from '../../i18n/i18n';
import { LanguageMenu } from '../../i18n/language-menu';

/** A refused pairing in the reader's words (a function: the words follow a language switch). */
function pairingError(code: string): string {
  switch (code) {
    case 'network':
      return t('door.pair.error.network');
    case 'svc_pairing_code_invalid':
      return t('door.pair.error.codeInvalid');
    case 'svc_rate_limited':
      return t('door.pair.error.rateLimited');
    case 'svc_invalid_param':
      return t('door.pair.error.badFormat');
    default:
      return t('door.pair.error.failed');
  }
}

/** Pairs the device once with the administrator's code (typed, or from the QR link). */
export function PairForm(props: { initialCode: string | null }): JSX.Element {
  const door = doorState();
  const [code, setCode] = createSignal(props.initialCode ?? '');
  const [errorCode, setErrorCode] = createSignal<string | null>(null);
  const error = () => {
    const c = errorCode();
    return c === null ? null : pairingError(c);
  };
  const [working, setWorking] = createSignal(false);

  const pair = async () => {
    const value = pairingCodeFrom(code()) ?? code().trim();
    if (working() || value === '') return;
    setWorking(true);
    setErrorCode(null);
    try {
      await door.pair(value);
    } catch (err) {
      setErrorCode(trpcErrorCode(err));
    } finally {
      setWorking(false);
    }
  };

  onMount(() => {
    if (props.initialCode) void pair();
  });

  return (
    <section aria-labelledby="pair-heading" class="door-pair">
      <div class="door-language">
        <LanguageMenu class="door-language-menu" />
      </div>
      <h2 id="pair-heading">{t('door.pair.heading')}</h2>
      <p>{t('door.pair.intro')}</p>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          void pair();
        }}
      >
        <div class="field">
          <label for="pair-code">{t('door.pair.codeLabel')}</label>
          <input
            id="pair-code"
            name="code"
            autocomplete="off"
            autocapitalize="characters"
            spellcheck={false}
            placeholder={t('door.pair.codeExample')}
            value={code()}
            onInput={(e) => setCode(e.currentTarget.value)}
            aria-describedby={error() ? 'pair-error' : undefined}
          />
        </div>
        <button type="submit" class="button" aria-disabled={working()}>
          {working() ? t('door.pair.working') : t('door.pair.submit')}
        </button>
        <FormError message={error()} id="pair-error" />
      </form>
    </section>
  );
}
