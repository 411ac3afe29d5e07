/**
 * The first-run checklist on the overview (docs/decisions/048-first-run.md): administrators only,
 * each step read from the data by `GET /setup` and linked to the page where it is done; hidden
 * once every step is done or the administrator hides it (remembered in this browser).
 */
import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import type { SetupStepKey } from '../../../shared/setup';
import { getSetup } from '../data';
import { ready } from './async-view';
import { A } from '../../router';
import { t } from '../../i18n/i18n';

const DISMISSED_KEY = 'svc-admin-setup-hidden';

/** Where each step is done, and what it asks, in the reader's language. */
const STEPS: Record<SetupStepKey, { href: string; label: () => string }> = {
  organization: { href: '/admin/settings', label: () => t('admin.setup.step.organization') },
  regional: { href: '/admin/settings', label: () => t('admin.setup.step.regional') },
  event: { href: '/admin/events/new', label: () => t('admin.setup.step.event') },
  bookingType: { href: '/admin/booking-types/new', label: () => t('admin.setup.step.bookingType') },
  staff: { href: '/admin/settings#new-user-heading', label: () => t('admin.setup.step.staff') },
  door: { href: '/admin/devices', label: () => t('admin.setup.step.door') },
};

function readDismissed(): boolean {
  try {
    return globalThis.localStorage?.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export function SetupChecklist(): JSX.Element {
  const [dismissed, setDismissed] = createSignal(readDismissed());
  const [setup] = createResource(() => !dismissed(), getSetup);
  const dismiss = () => {
    setDismissed(true);
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // private mode: hidden for this visit only
    }
  };
  return (
    <Show when={!dismissed() && ready(setup)?.complete === false ? ready(setup) : undefined}>
      {(s) => (
        <section class="section setup" aria-labelledby="setup-heading">
          <div class="section-header">
            <h2 id="setup-heading">{t('admin.setup.heading')}</h2>
            <button type="button" class="button button-small button-quiet" onClick={dismiss}>
              {t('admin.setup.dismiss')}
            </button>
          </div>
          <p class="muted">{t('admin.setup.progress', { done: s().steps.filter((step) => step.done).length, total: s().steps.length })}</p>
          <ol class="setup-steps">
            <For each={s().steps}>
              {(step) => (
                <li classList={{ 'setup-step': true, 'setup-done': step.done }} data-step={step.key}>
                  <A href={STEPS[step.key].href}>{STEPS[step.key].label()}</A>{' '}
                  <span class="setup-state">{step.done ? t('admin.setup.done') : t('admin.setup.open')}</span>
                </li>
              )}
            </For>
          </ol>
        </section>
      )}
    </Show>
  );
}
