/**
 * Register a walk-in at the door (docs/api.md#sync): name, optional email, how many people; the
 * person is checked in at once and the verdict shows OK. Works offline — the walk-in is stored on
 * the device and synced later. Shown only on a device the administrator allowed to do this.
 */
import { createSignal, Show, type JSX } from 'solid-js';
import { unlockAudio } from '../scanner/feedback';
import { doorState } from '../state';
import { t, tx } from '../../i18n/i18n';

/** The server's MAX_QUANTITY (shared/attendees.ts; not imported, it would bring zod into the door's chunk). */
const MAX_PEOPLE = 1000;
/** The shape the server accepts (zod's email check), so a walk-in the door accepts is never set aside as malformed. */
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** Which fields are refused; their words are read at render, so they follow a language switch. */
interface Problems {
  name?: boolean;
  email?: boolean;
  quantity?: boolean;
  form?: boolean;
}

export function WalkInForm(props: { disabled: boolean }): JSX.Element {
  const door = doorState();
  const [open, setOpen] = createSignal(false);
  const [name, setName] = createSignal('');
  const [email, setEmail] = createSignal('');
  const [quantity, setQuantity] = createSignal('1');
  const [problems, setProblems] = createSignal<Problems>({});
  let nameInput: HTMLInputElement | undefined;
  let emailInput: HTMLInputElement | undefined;
  let quantityInput: HTMLInputElement | undefined;
  let opener: HTMLButtonElement | undefined;

  const people = () => Number(quantity());
  /** A field's message goes as soon as it is being corrected. */
  const clear = (field: keyof Problems) => {
    if (problems()[field]) setProblems({ ...problems(), [field]: undefined });
  };
  const step = (by: number) => {
    const next = Math.min(MAX_PEOPLE, Math.max(1, (Number.isInteger(people()) ? people() : 1) + by));
    setQuantity(String(next));
    clear('quantity');
  };
  const close = () => {
    setOpen(false);
    setName('');
    setEmail('');
    setQuantity('1');
    setProblems({});
    queueMicrotask(() => opener?.focus());
  };

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    unlockAudio();
    if (props.disabled) return;
    const found: Problems = {};
    if (!name().trim()) found.name = true;
    if (email().trim() && !EMAIL.test(email().trim())) found.email = true;
    if (!Number.isInteger(people()) || people() < 1 || people() > MAX_PEOPLE) found.quantity = true;
    setProblems(found);
    if (found.name) return nameInput?.focus();
    if (found.email) return emailInput?.focus();
    if (found.quantity) return quantityInput?.focus();
    try {
      await door.registerWalkIn({ displayName: name().trim(), email: email().trim(), quantity: people() });
      close();
    } catch {
      setProblems({ form: true });
    }
  };

  return (
    <Show when={door.device()?.walkIns === true}>
      <section class="door-section walk-in" aria-labelledby="walk-in-heading">
        <h2 id="walk-in-heading">{t('door.walkIn.heading')}</h2>
        <Show
          when={open()}
          fallback={
            <button
              ref={opener}
              type="button"
              class="button walk-in-open"
              disabled={props.disabled}
              onClick={() => {
                setOpen(true);
                queueMicrotask(() => nameInput?.focus());
              }}
            >
              {t('door.walkIn.open')}
            </button>
          }
        >
          <form class="door-form walk-in-form" aria-label={t('door.walkIn.open')} novalidate onSubmit={(e) => void submit(e)}>
            <div class="field">
              <label for="walk-in-name">{t('door.walkIn.name')}</label>
              <input
                ref={nameInput}
                id="walk-in-name"
                name="displayName"
                autocomplete="off"
                maxlength={190}
                value={name()}
                onInput={(e) => {
                  setName(e.currentTarget.value);
                  clear('name');
                }}
                aria-invalid={problems().name ? 'true' : undefined}
                aria-describedby={problems().name ? 'walk-in-name-error' : undefined}
                disabled={props.disabled}
              />
              <Show when={problems().name}>
                <p id="walk-in-name-error" class="form-error" role="alert">
                  {t('door.walkIn.error.name')}
                </p>
              </Show>
            </div>
            <div class="field">
              <label for="walk-in-email">{tx('door.walkIn.email', { muted: (chunks) => <span class="muted">{chunks}</span> })}</label>
              <input
                ref={emailInput}
                id="walk-in-email"
                name="email"
                type="email"
                inputmode="email"
                autocomplete="off"
                autocapitalize="off"
                spellcheck={false}
                maxlength={254}
                value={email()}
                onInput={(e) => {
                  setEmail(e.currentTarget.value);
                  clear('email');
                }}
                aria-invalid={problems().email ? 'true' : undefined}
                aria-describedby={problems().email ? 'walk-in-email-error' : undefined}
                disabled={props.disabled}
              />
              <Show when={problems().email}>
                <p id="walk-in-email-error" class="form-error" role="alert">
                  {t('door.walkIn.error.email')}
                </p>
              </Show>
            </div>
            <div class="field">
              <label for="walk-in-quantity">{t('door.walkIn.people')}</label>
              <div class="walk-in-stepper">
                <button type="button" class="button button-quiet" aria-label={t('door.walkIn.fewer')} onClick={() => step(-1)} disabled={props.disabled}>
                  −
                </button>
                <input
                  ref={quantityInput}
                  id="walk-in-quantity"
                  name="quantity"
                  inputmode="numeric"
                  pattern="[0-9]*"
                  autocomplete="off"
                  value={quantity()}
                  onInput={(e) => {
                    setQuantity(e.currentTarget.value.trim());
                    clear('quantity');
                  }}
                  aria-invalid={problems().quantity ? 'true' : undefined}
                  aria-describedby={problems().quantity ? 'walk-in-quantity-error' : undefined}
                  disabled={props.disabled}
                />
                <button type="button" class="button button-quiet" aria-label={t('door.walkIn.more')} onClick={() => step(1)} disabled={props.disabled}>
                  +
                </button>
              </div>
              <Show when={problems().quantity}>
                <p id="walk-in-quantity-error" class="form-error" role="alert">
                  {t('door.walkIn.error.quantity', { max: MAX_PEOPLE })}
                </p>
              </Show>
            </div>
            <p class="muted door-hint">{t('door.walkIn.offlineHint')}</p>
            <Show when={problems().form}>
              <p class="form-error" role="alert">
                {t('door.walkIn.error.save')}
              </p>
            </Show>
            <div class="walk-in-actions">
              <button type="submit" class="button" disabled={props.disabled || door.busy()}>
                {t('door.walkIn.submit')}
              </button>
              <button type="button" class="button button-quiet" onClick={close}>
                {t('door.walkIn.cancel')}
              </button>
            </div>
          </form>
        </Show>
      </section>
    </Show>
  );
}
