import { createResource, Match, Switch, type JSX } from 'solid-js';
import { edition, loadPaymentStatus } from '../edition';
import { errorMessage } from '../../ui/errors';
import { t } from '../../i18n/i18n';

/**
 * A page of the extended edition: its content once the server says it runs that edition, a plain
 * note in the free edition (where the operations answer 404), never an error flashed meanwhile.
 */
export function ExtendedOnly(props: { what: string; children: JSX.Element }): JSX.Element {
  const [status, { refetch }] = createResource(loadPaymentStatus);
  return (
    <Switch
      fallback={
        <p class="status-text" aria-busy="true">
          {t('common.loading')}
        </p>
      }
    >
      <Match when={edition() === 'extended'}>{props.children}</Match>
      <Match when={edition() === 'free'}>
        <p class="notice" role="status">
          {t('admin.common.extendedOnly', { what: props.what })}
        </p>
      </Match>
      <Match when={status.state === 'errored'}>
        <div class="notice notice-error" role="alert">
          <p>{t('admin.common.editionFailed', { reason: errorMessage(status.error) })}</p>
          <button type="button" class="button" onClick={() => void refetch()}>
            {t('common.tryAgain')}
          </button>
        </div>
      </Match>
    </Switch>
  );
}
