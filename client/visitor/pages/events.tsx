/** `/events`: published events and bookable appointment types, from the device's copy when offline. */
import { createEffect, createSignal, For, onMount, Show, type JSX } from 'solid-js';
import { Page } from '../../ui/page';
import { isoDateTime } from '../../ui/format';
import { A } from '../../router';
import { call, rpc } from '../../ui/trpc';
import { ResourceStates } from '../components/states';
import { createCachedResource } from '../cache';
import { startOutboxRunner } from '../runner';
import { detectTimeZone, formatPrice } from '../time';
import type { EventDto } from '../../../shared/events';
import { t, tx } from '../../i18n/i18n';
import { formatWhenHere } from '../when';
import '../../styles/visitor.css';

/** Below this many places the card says so with emphasis (the words carry it; the style only adds to them). */
const FEW_PLACES = 5;

/** What a card says about getting in, in words: the server's state when the list was fetched. */
function availability(event: EventDto): string | null {
  switch (event.signupState) {
    case 'closed':
      return t('availability.closed');
    case 'not_yet_open':
      return t('availability.notYetOpen');
    case 'full_waitlist':
      return t('availability.fullWaitlist');
    case 'full':
      return t('availability.full');
    default:
      return event.placesLeft === null ? null : t('availability.placesLeft', { count: event.placesLeft });
  }
}

export default function EventsPage(): JSX.Element {
  const tz = detectTimeZone();
  const events = createCachedResource(
    () => 'events',
    async () => (await call(rpc().events.list.query({ perPage: 100 }))).items,
  );
  const types = createCachedResource(
    () => 'booking-types',
    async () => (await call(rpc().booking.types.query({ perPage: 100 }))).items,
  );
  // Proposals are an extended-edition feature: their form route answers 404 in the free edition.
  const proposals = createCachedResource(
    () => 'submissions-open',
    async () => Boolean(await call(rpc().submissions.form.query())),
  );
  // latched: a later refresh of the list (reconnect) does not take the section away again
  const [aboveSettled, setAboveSettled] = createSignal(false);
  createEffect(() => {
    if (!events.loading() && !proposals.loading()) setAboveSettled(true);
  });
  onMount(startOutboxRunner);

  return (
    <Page title={t('events.title')}>
      <section class="v-stack" aria-labelledby="events-heading">
        <h2 id="events-heading">{t('events.upcoming')}</h2>
        <ResourceStates resource={events} what="list" loading={t('events.loading')} />
        <Show when={events.value()?.length === 0}>
          <p class="status-text">{t('events.none')}</p>
        </Show>
        <Show when={(events.value()?.length ?? 0) > 0}>
          <ul class="v-list">
            <For each={events.value()}>
              {(event) => (
                <li>
                  <A href={`/events/${event.id}`} class="v-item">
                    <span class="v-item-title">{event.title}</span>
                    <span class="v-item-meta">
                      <time datetime={isoDateTime(event.startsUtc)}>
                        {formatWhenHere({ startUtc: event.startsUtc, endUtc: event.endsUtc, zone: event.timezone, viewerZone: tz }).text}
                      </time>
                      {event.venue ? ` · ${event.venue}` : ''}
                    </span>
                    <span class="v-item-meta">
                      {event.priceCents > 0 ? formatPrice(event.priceCents, event.currency) : t('price.free')}
                      <Show when={availability(event)}>
                        {(text) => (
                          <>
                            {' · '}
                            <span
                              class="v-availability"
                              classList={{
                                few: event.signupState === 'open' && event.placesLeft !== null && event.placesLeft <= FEW_PLACES,
                                full: event.signupState !== 'open',
                              }}
                            >
                              {text()}
                            </span>
                          </>
                        )}
                      </Show>
                    </span>
                  </A>
                </li>
              )}
            </For>
          </ul>
        </Show>
        <Show when={proposals.value()}>
          <p class="v-hint">{tx('events.propose', { link: (chunks) => <A href="/events/submit">{chunks}</A> })}</p>
        </Show>
      </section>

      {/* shown once the events above have their answer, so the list arriving does not push it down under the reader */}
      <Show when={aboveSettled()}>
        <section class="v-stack section" aria-labelledby="types-heading">
          <h2 id="types-heading">{t('events.book.heading')}</h2>
          <ResourceStates resource={types} what="list" loading={t('events.book.loading')} />
          <Show when={types.value()?.length === 0}>
            <p class="status-text">{t('events.book.none')}</p>
          </Show>
          <Show when={(types.value()?.length ?? 0) > 0}>
            <ul class="v-list">
              <For each={types.value()}>
                {(type) => (
                  <li>
                    <A href={`/book/${type.id}`} class="v-item">
                      <span class="v-item-title">{type.title}</span>
                      <span class="v-item-meta">
                        {t('events.book.minutes', { count: type.durationMinutes })}
                        {type.locationLabel ? ` · ${type.locationLabel}` : ''}
                        {` · ${type.priceCents > 0 ? formatPrice(type.priceCents, type.currency) : t('events.book.free')}`}
                      </span>
                    </A>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </section>
      </Show>
    </Page>
  );
}
