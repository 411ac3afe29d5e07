/**
 * A private calendar feed of bookings (docs/api.md#calendar-feeds): its address to copy into
 * Google, Apple or Outlook Calendar, a link that opens the device's calendar to subscribe, a
 * new address (the old one stops) and revoking it. Serves the administrator's feed of every
 * booking and a host's own.
 */
import { createResource, createSignal, Show, type JSX } from 'solid-js';
import { ready } from './async-view';
import { CopyField } from './copy-field';
import type { createConfirm } from './confirm';
import { getFeed, renewFeed, revokeFeed, type FeedOwner } from '../data';
import { adminErrorMessage } from '../errors';
import { t, tx } from '../../i18n/i18n';

/** `confirm` is the page's one confirmation dialog. */
export function CalendarFeed(props: { owner: FeedOwner; heading: string; lead: string; confirm: ReturnType<typeof createConfirm> }): JSX.Element {
  const [feed, { mutate }] = createResource(() => props.owner, getFeed);
  const [status, setStatus] = createSignal('');
  const [error, setError] = createSignal('');
  const id = `feed-${props.owner.scope}`;

  const run = async (action: () => Promise<void>) => {
    setError('');
    setStatus('');
    try {
      await action();
    } catch (err) {
      setError(adminErrorMessage(err));
    }
  };
  const make = () =>
    run(async () => {
      mutate(await renewFeed(props.owner));
      setStatus(t('admin.feed.made'));
    });
  return (
    <section class="section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{props.heading}</h2>
      <p class="muted">{props.lead}</p>
      <Show
        when={ready(feed)?.url}
        fallback={
          <div class="button-row">
            <button type="button" class="button" onClick={() => void make()}>
              {t('admin.feed.make')}
            </button>
          </div>
        }
      >
        {(url) => (
          <>
            <div class="field">
              <label for={id}>{t('admin.feed.address')}</label>
              <CopyField
                id={id}
                value={url()}
                onCopied={setStatus}
                describedBy={`${id}-warning`}
                copyLabel={tx('admin.feed.copy', { hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
              />
              <p id={`${id}-warning`} class="field-hint">
                {t('admin.feed.private')}
              </p>
            </div>
            <div class="button-row">
              <a class="button button-quiet" href={ready(feed)?.webcalUrl ?? undefined}>
                {t('admin.feed.subscribe')}
              </a>
              <button
                type="button"
                class="button button-quiet"
                onClick={() =>
                  props.confirm.ask({
                    title: t('admin.feed.renewTitle'),
                    detail: t('admin.feed.renewDetail'),
                    confirmLabel: t('admin.feed.renew'),
                    action: () => make(),
                  })
                }
              >
                {t('admin.feed.renew')}
              </button>
              <button
                type="button"
                class="button button-quiet"
                onClick={() =>
                  props.confirm.ask({
                    title: t('admin.feed.revokeTitle'),
                    detail: t('admin.feed.revokeDetail'),
                    confirmLabel: t('admin.feed.revoke'),
                    action: () =>
                      run(async () => {
                        await revokeFeed(props.owner);
                        mutate({ scope: props.owner.scope, url: null, webcalUrl: null, createdUtc: null });
                        setStatus(t('admin.feed.revoked'));
                      }),
                  })
                }
              >
                {t('admin.feed.revoke')}
              </button>
            </div>
          </>
        )}
      </Show>
      <p class="save-status save-ok" role="status">
        {status()}
      </p>
      <Show when={error() || feed.error}>
        <p class="form-error" role="alert">
          {error() || adminErrorMessage(feed.error)}
        </p>
      </Show>
    </section>
  );
}
