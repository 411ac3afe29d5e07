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
import { formatWhen } from '../../../shared/time-format';
import type { EventDto } from '../../../shared/events';
import '../../styles/visitor.css';

/** Below this many places the card says so with emphasis (the words carry it; the style only adds to them). */
const FEW_PLACES = 5;

/** What a card says about getting in, in words: the server's state when the list was fetched. */
function availability(event: EventDto): string | null {
  switch (event.signupState) {
    case 'closed':
      return 'Sign-up closed';
    case 'not_yet_open':
      return 'Sign-up not open yet';
    case 'full_waitlist':
      return 'Full — join the waitlist';
    case 'full':
      return 'Full';
    default:
      return event.placesLeft === null ? null : `${event.placesLeft} ${event.placesLeft === 1 ? 'place' : 'places'} left`;
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
    <Page title="Events">
      <section class="v-stack" aria-labelledby="events-heading">
        <h2 id="events-heading">Upcoming events</h2>
        <ResourceStates resource={events} what="list" loading="Loading events…" />
        <Show when={events.value()?.length === 0}>
          <p class="status-text">No events are open for sign-up right now. Please look again later.</p>
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
                        {formatWhen({ startUtc: event.startsUtc, endUtc: event.endsUtc, zone: event.timezone, viewerZone: tz }).text}
                      </time>
                      {event.venue ? ` · ${event.venue}` : ''}
                    </span>
                    <span class="v-item-meta">
                      {event.priceCents > 0 ? formatPrice(event.priceCents, event.currency) : 'Free'}
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
          <p class="v-hint">
            Know of an event that belongs here? <A href="/events/submit">Propose an event</A>
          </p>
        </Show>
      </section>

      {/* shown once the events above have their answer, so the list arriving does not push it down under the reader */}
      <Show when={aboveSettled()}>
        <section class="v-stack section" aria-labelledby="types-heading">
          <h2 id="types-heading">Book an appointment</h2>
          <ResourceStates resource={types} what="list" loading="Loading appointment types…" />
          <Show when={types.value()?.length === 0}>
            <p class="status-text">No appointments can be booked right now.</p>
          </Show>
          <Show when={(types.value()?.length ?? 0) > 0}>
            <ul class="v-list">
              <For each={types.value()}>
                {(type) => (
                  <li>
                    <A href={`/book/${type.id}`} class="v-item">
                      <span class="v-item-title">{type.title}</span>
                      <span class="v-item-meta">
                        {type.durationMinutes} minutes
                        {type.locationLabel ? ` · ${type.locationLabel}` : ''}
                        {type.priceCents > 0 ? ` · ${formatPrice(type.priceCents, type.currency)}` : ' · free'}
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
