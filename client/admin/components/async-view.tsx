import { Match, Switch, type JSX, type Resource } from 'solid-js';
import { errorMessage } from '../../ui/errors';
import { locale, t } from '../../i18n/i18n';

/** English names the thing mid-sentence in lower case ("Loading events…"); the other catalogues put it after a colon, as given. */
const midSentence = (what: string): string => (locale() === 'en' ? what.toLowerCase() : what);

/**
 * Loading, error (with retry), empty and loaded states of one resource — every admin list
 * uses it so no page forgets one. The loaded content stays on screen while it refreshes.
 */
/**
 * The resource's value, or undefined while it loads or after it failed. (Reading a Solid
 * resource that failed throws its error; secondary lists such as "event titles for this
 * table" must degrade instead of breaking the page.)
 */
export function ready<T>(resource: Resource<T>): T | undefined {
  return resource.state === 'ready' || resource.state === 'refreshing' ? resource.latest : undefined;
}

export function AsyncView<T>(props: {
  resource: Resource<T>;
  retry: () => void;
  what: string;
  isEmpty?: (value: T) => boolean;
  empty?: JSX.Element;
  /** Gets an accessor: the content is built once and updates in place when the resource refreshes. */
  children: (value: () => T) => JSX.Element;
}): JSX.Element {
  return (
    <Switch>
      <Match when={props.resource.state === 'errored'}>
        <div class="notice notice-error" role="alert">
          <p>{t('admin.common.loadFailed', { what: props.what, reason: errorMessage(props.resource.error) })}</p>
          <button type="button" class="button" onClick={() => props.retry()}>
            {t('common.tryAgain')}
          </button>
        </div>
      </Match>
      <Match when={props.resource.state === 'unresolved' || props.resource.state === 'pending'}>
        <p class="status-text" aria-busy="true">
          {t('admin.common.loading', { what: midSentence(props.what) })}
        </p>
      </Match>
      <Match when={ready(props.resource) !== undefined && props.isEmpty?.(ready(props.resource) as T)}>{props.empty}</Match>
      <Match when={true}>{props.children(() => ready(props.resource) as T)}</Match>
    </Switch>
  );
}

/**
 * The loading, "no such …" and failed states of one item's page (an order, a webhook endpoint);
 * the page shows the item itself once it is ready. `missing`: the id was not valid, or the
 * server answered 404.
 */
export function ItemStatus(props: { resource: Resource<unknown>; retry: () => void; missing: boolean; what: string; id: number | string }): JSX.Element {
  return (
    <Switch>
      <Match when={props.missing}>
        <p class="notice" role="alert">
          {t('admin.common.noSuchItem', { what: props.what, id: String(props.id) })}
        </p>
      </Match>
      <Match when={props.resource.state === 'errored'}>
        <div class="notice notice-error" role="alert">
          <p>{t('admin.common.itemLoadFailed', { what: props.what, reason: errorMessage(props.resource.error) })}</p>
          <button type="button" class="button" onClick={() => props.retry()}>
            {t('common.tryAgain')}
          </button>
        </div>
      </Match>
      <Match when={props.resource.state === 'pending' || props.resource.state === 'unresolved'}>
        <p class="status-text" aria-busy="true">
          {t('admin.common.itemLoading', { what: props.what })}
        </p>
      </Match>
    </Switch>
  );
}
