import { Show, type JSX } from 'solid-js';
import { online } from '../../pwa';
import { formatAge } from '../time';

/** Says how old a stored copy is whenever the page shows one the network has not refreshed. */
export function AgeNote(props: { fetchedAt: number | undefined; stale: boolean; what: string }): JSX.Element {
  return (
    <Show when={props.stale && props.fetchedAt !== undefined}>
      <p class="v-age" role="status">
        {online() ? 'Could not refresh' : 'You are offline'}: showing the {props.what} saved {formatAge(props.fetchedAt!)}.
      </p>
    </Show>
  );
}

/** The error state of a page or section: the message in plain words and a way to try again. */
export function ErrorState(props: { message: string; onRetry?: () => void }): JSX.Element {
  return (
    <div class="notice notice-error" role="alert">
      <p>{props.message}</p>
      <Show when={props.onRetry}>
        <button type="button" class="button button-quiet" onClick={() => props.onRetry?.()}>
          Try again
        </button>
      </Show>
    </div>
  );
}

const FIELD_WORDS: Record<string, string> = {
  email: 'Email',
  display_name: 'Name',
  quantity: 'Seats',
  customerName: 'Name',
  customerEmail: 'Email',
  customerTz: 'Timezone',
  startUtc: 'Time',
};

/** The server's refusal under a form: its message, and each named field with the reason. */
export function SubmissionProblem(props: { id: string; error: { message: string; params?: Record<string, string> } }): JSX.Element {
  const params = () => Object.entries(props.error.params ?? {});
  return (
    <div id={props.id} class="form-error" role="alert">
      <p style={{ margin: 0 }}>{props.error.message}</p>
      <Show when={params().length > 0}>
        <ul>
          {params().map(([field, reason]) => (
            <li>
              {FIELD_WORDS[field] ?? field.replace(/^svc_cf_/, '').replace(/_/g, ' ')}: {reason}
            </li>
          ))}
        </ul>
      </Show>
    </div>
  );
}
