import { For, onCleanup, onMount, Show, type JSX } from 'solid-js';
import { online } from '../../pwa';
import { onReconnect } from '../../offline/reconnect';
import { fieldLabel, fieldProblems, messageNamesField, plainSummary } from '../../ui/forms';
import { formatAge } from '../time';
import type { CachedResource } from '../cache';
import type { Submission } from '../db';
import { t } from '../../i18n/i18n';

/** What AgeNote and ResourceStates read of a page's resource (client/visitor/cache.ts). */
type ShownResource = Pick<CachedResource<unknown>, 'value' | 'fetchedAt' | 'stale' | 'loading' | 'error' | 'refresh'>;
/** What the stored copy is of, named in the catalogue's `states.age` message. */
export type StoredWhat = 'list' | 'event' | 'details' | 'times';

/**
 * Says how old a stored copy is whenever the page shows one the network has not refreshed
 * ("Still refreshing" while a slow network has not answered yet). Coming back online (or back
 * to the page) tries again, and the note goes as soon as a refresh succeeds.
 */
export function AgeNote(props: { resource: ShownResource; what: StoredWhat }): JSX.Element {
  onMount(() => {
    const stop = onReconnect(() => {
      if (props.resource.stale()) void props.resource.refresh();
    });
    onCleanup(stop);
  });
  return (
    <Show when={props.resource.stale() && props.resource.fetchedAt() !== undefined}>
      <p class="v-age" role="status">
        {t('states.age', {
          reason: !online() ? 'offline' : props.resource.loading() ? 'refreshing' : 'failed',
          what: props.what,
          age: formatAge(props.resource.fetchedAt()!),
        })}
      </p>
    </Show>
  );
}

/** A section's states before its content: the stored copy's age, "Loading…" with nothing to show yet, or the error with Try again. */
export function ResourceStates(props: { resource: ShownResource; what: StoredWhat; loading: string }): JSX.Element {
  return (
    <>
      <AgeNote resource={props.resource} what={props.what} />
      <Show when={props.resource.value() === undefined && props.resource.loading()}>
        <p class="status-text" role="status">
          {props.loading}
        </p>
      </Show>
      <Show when={props.resource.value() === undefined && !props.resource.loading() && props.resource.error()}>
        {(message) => <ErrorState message={message()} onRetry={() => void props.resource.refresh()} />}
      </Show>
    </>
  );
}

/** The error state of a page or section: the message in plain words and a way to try again. */
export function ErrorState(props: { message: string; onRetry?: () => void }): JSX.Element {
  return (
    <div class="notice notice-error" role="alert">
      <p>{props.message}</p>
      <Show when={props.onRetry}>
        <button type="button" class="button button-quiet" onClick={() => props.onRetry?.()}>
          {t('common.tryAgain')}
        </button>
      </Show>
    </div>
  );
}

/**
 * The server's refusal under a form, in plain words: a summary, then one line per named field
 * (client/ui/forms.ts) that moves focus to the field. `fieldIds` maps a server field to its
 * input's id; `ref` lets the page bring the message into view (revealResult).
 */
export function SubmissionProblem(props: {
  id: string;
  error: { message: string; params?: Record<string, string> };
  fieldIds?: Record<string, string>;
  ref?: (el: HTMLDivElement) => void;
}): JSX.Element {
  const problems = () =>
    Object.entries(fieldProblems(props.error.params)).map(
      ([field, message]) => [field, messageNamesField(field) ? message : `${fieldLabel(field)}: ${message}`] as const,
    );
  const focusField = (e: MouseEvent, field: string) => {
    const el = document.getElementById(props.fieldIds?.[field] ?? '');
    if (!el) return;
    e.preventDefault();
    el.focus();
  };
  return (
    <div id={props.id} ref={props.ref} class="form-error" role="alert" tabindex="-1">
      <p style={{ margin: 0 }}>{plainSummary(props.error.message, problems().length)}</p>
      <Show when={problems().length > 0}>
        <ul>
          <For each={problems()}>
            {([field, message]) => (
              <li>
                <Show when={props.fieldIds?.[field]} fallback={message}>
                  {(inputId) => (
                    <a href={`#${inputId()}`} onClick={(e) => focusField(e, field)}>
                      {message}
                    </a>
                  )}
                </Show>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </div>
  );
}

/**
 * A queued sign-up or booking the server throttled (429) waits for its Retry-After and is sent
 * again by itself (client/visitor/outbox.ts): the page says so instead of "Sending…".
 */
export function isThrottled(submission: Pick<Submission, 'state' | 'error'> | undefined): boolean {
  return submission?.state === 'queued' && submission.error?.code === 'svc_rate_limited';
}

/** "…sent again by itself in about 40 seconds", from the time the outbox sends it again. */
export function throttledRetryText(notBefore: number, now = Date.now()): string {
  if (!Number.isFinite(notBefore)) return t('states.throttled', { unit: 'unknown', count: 0 });
  const seconds = Math.max(1, Math.round((notBefore - now) / 1000));
  if (seconds < 90) return t('states.throttled', { unit: 'seconds', count: seconds });
  return t('states.throttled', { unit: 'minutes', count: Math.round(seconds / 60) });
}
