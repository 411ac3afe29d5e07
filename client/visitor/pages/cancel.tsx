/**
 * `/cancel/{token}` from the sign-up email: opening it only shows what would be cancelled
 * (mail scanners open links); the button does it.
 */
import { createResource, createSignal, Show, type JSX } from 'solid-js';
import { ApiError, errorMessage } from '../../ui/errors';
import { FormError } from '../../ui/form-error';
import { Page } from '../../ui/page';
import type { RouteProps } from '../../router';
import { A } from '../../router';
import { call, rpc } from '../../ui/trpc';
import { ErrorState } from '../components/states';
import { WhenLines } from '../components/when-lines';
import { detectTimeZone } from '../time';
import { formatWhen } from '../../../shared/time-format';
import '../../styles/visitor.css';

export default function CancelPage(props: RouteProps): JSX.Element {
  const token = props.params.token ?? '';
  const tz = detectTimeZone();
  const [preview, { refetch }] = createResource(() => call(rpc().attendees.cancelPreview.query({ token })));
  // the end time comes with the event; without it (unpublished since) the start is shown alone
  const [event] = createResource(
    () => preview.latest?.eventId,
    (id) => call(rpc().events.get.query({ id })).catch(() => null),
  );
  const [busy, setBusy] = createSignal(false);
  const [done, setDone] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);

  const cancel = async () => {
    if (busy()) return;
    setBusy(true);
    setError(null);
    try {
      await call(rpc().attendees.cancel.mutate({ token }));
      setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const notFound = () => preview.error instanceof ApiError && preview.error.status === 404;

  return (
    <Page title="Cancel your sign-up">
      <Show when={preview.loading}>
        <p class="status-text" role="status">
          Loading your sign-up…
        </p>
      </Show>
      <Show when={preview.error}>
        <Show when={notFound()} fallback={<ErrorState message={errorMessage(preview.error)} onRetry={() => void refetch()} />}>
          <ErrorState message="This cancel link is not valid. It may be mistyped, or the sign-up no longer exists." />
        </Show>
      </Show>
      <Show when={!preview.loading && !preview.error && preview()}>
        {(p) => (
          <div class="v-stack">
            <dl class="v-facts">
              <dt>Event</dt>
              <dd>{p().eventTitle}</dd>
              <dt>When</dt>
              <dd>
                <WhenLines when={formatWhen({ startUtc: p().eventStartsUtc, endUtc: event.latest?.endsUtc, zone: p().eventTimezone, viewerZone: tz })} />
              </dd>
              <dt>Name</dt>
              <dd>{p().displayName}</dd>
              <dt>Seats</dt>
              <dd>{p().quantity}</dd>
              <dt>Status</dt>
              <dd>{done() || p().status === 'cancelled' ? 'Cancelled' : p().status === 'waitlist' ? 'On the waitlist' : 'Going'}</dd>
            </dl>
            <Show
              when={!done() && p().status !== 'cancelled'}
              fallback={
                <div class="v-result" role="status">
                  <h2>{done() ? 'Your sign-up is cancelled' : 'This sign-up was already cancelled'}</h2>
                  <p>
                    {done() ? 'Your seats are free for someone else. ' : ''}
                    <A href={`/events/${p().eventId}`}>Back to the event</A>
                  </p>
                </div>
              }
            >
              <p>
                Cancelling gives up {p().quantity === 1 ? 'your seat' : `all ${p().quantity} seats`} for {p().eventTitle}. This cannot be undone.
              </p>
              <div class="v-actions">
                <button type="button" class="button" onClick={cancel} aria-disabled={busy()} aria-describedby={error() ? 'cancel-error' : undefined}>
                  {busy() ? 'Cancelling…' : 'Cancel my sign-up'}
                </button>
              </div>
              <FormError message={error()} id="cancel-error" />
            </Show>
          </div>
        )}
      </Show>
    </Page>
  );
}
