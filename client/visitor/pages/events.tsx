/**
 * `/events`: published events not over yet, by month, then the most recent past ones under
 * their own heading, and the bookable appointment types; from the device's copy when offline.
 * The search box narrows both event lists as the visitor types.
 */
import { CoverImage } from '../components/cover-image';
import { COVER_SIZES } from '../../../shared/images';
import { createEffect, createMemo, createSignal, For, onMount, Show, type JSX } from 'solid-js';
import { Page } from '../../ui/page';
import { isoDateTime } from '../../ui/format';
import { A } from '../../router';
import { call, rpc } from '../../ui/trpc';
import { ResourceStates } from '../components/states';
import { createCachedResource } from '../cache';
import { startOutboxRunner } from '../runner';
import { dayInZone, detectTimeZone, formatPrice, monthInWords } from '../time';
import { eventIsOver, type EventDto } from '../../../shared/events';
import { toUtcString, utcMs } from '../../../shared/time';
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

/** Past events shown: the most recent ones; older ones are for the organizer's records. */
const PAST_SHOWN = 10;

/** Whether the title holds the words typed (any case). */
const matches = (event: EventDto, words: string) => words === '' || event.title.toLocaleLowerCase().includes(words);

/** Events in runs of one month each (in the reader's zone), in list order. */
function byMonth(list: EventDto[], tz: string): { month: string; events: EventDto[] }[] {
  const groups: { month: string; events: EventDto[] }[] = [];
  for (const event of list) {
    const month = dayInZone(utcMs(event.startsUtc), tz).slice(0, 7);
    const last = groups[groups.length - 1];
    if (last?.month === month) last.events.push(event);
    else groups.push({ month, events: [event] });
  }
  return groups;
}

export default function EventsPage(): JSX.Element {
  const tz = detectTimeZone();
  const events = createCachedResource(
    () => 'events',
    async () => (await call(rpc().events.list.query({ perPage: 100, when: 'upcoming' }))).items,
  );
  const [search, setSearch] = createSignal('');
  const words = () => search().trim().toLocaleLowerCase();
  // a copy kept offline may hold events that have ended since: they are not upcoming any more
  const upcoming = createMemo(() => {
    const list = events.value();
    if (!list) return undefined;
    const nowUtc = toUtcString(Date.now());
    return list.filter((e) => !eventIsOver(e, nowUtc) && matches(e, words()));
  });
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
  // asked for once the page's first answers are in: it is below them, and nobody waits on it
  const past = createCachedResource(
    () => (aboveSettled() ? 'events-past' : null),
    async () => (await call(rpc().events.list.query({ perPage: PAST_SHOWN, when: 'past' }))).items,
  );
  const pastShown = createMemo(() => (past.value() ?? []).filter((e) => matches(e, words())));
  onMount(startOutboxRunner);

  return (
    <Page title={t('events.title')}>
      <section class="v-stack" aria-labelledby="events-heading">
        <h2 id="events-heading">{t('events.upcoming')}</h2>
        <div class="field">
          <label for="events-search">{t('events.search')}</label>
          <input id="events-search" type="search" autocomplete="off" value={search()} onInput={(e) => setSearch(e.currentTarget.value)} />
        </div>
        <ResourceStates resource={events} what="list" loading={t('events.loading')} />
        <Show when={upcoming()?.length === 0}>
          <p class="status-text" role="status">
            {words() === '' ? t('events.none') : t('events.noMatch')}
          </p>
        </Show>
        <For each={byMonth(upcoming() ?? [], tz)}>
          {(group) => (
            <section class="v-stack" aria-labelledby={`events-month-${group.month}`}>
              <h3 id={`events-month-${group.month}`} class="v-month">
                {monthInWords(Number(group.month.slice(0, 4)), Number(group.month.slice(5, 7)))}
              </h3>
              <EventList events={group.events} tz={tz} />
            </section>
          )}
        </For>
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

      <Show when={aboveSettled() && pastShown().length > 0}>
        <section class="v-stack section" aria-labelledby="past-heading">
          <h2 id="past-heading">{t('events.past')}</h2>
          <EventList events={pastShown()} tz={tz} past />
        </section>
      </Show>
    </Page>
  );
}

/** Event cards; a past one says nothing about getting in (it is over). */
function EventList(props: { events: EventDto[]; tz: string; past?: boolean }): JSX.Element {
  return (
    <ul class="v-list">
      <For each={props.events}>
        {(event) => (
          <li>
            <A href={`/events/${event.id}`} class="v-item">
              {/* inside the link the title names it already: the cover is decorative unless it has its own alt */}
              <CoverImage image={event.image} alt="" sizes={COVER_SIZES.half} lazy class="v-cover v-cover-card" />
              <span class="v-item-title">{event.title}</span>
              <span class="v-item-meta">
                <time datetime={isoDateTime(event.startsUtc)}>
                  {formatWhenHere({ startUtc: event.startsUtc, endUtc: event.endsUtc, zone: event.timezone, viewerZone: props.tz }).text}
                </time>
                {event.venue ? ` · ${event.venue}` : ''}
              </span>
              <span class="v-item-meta">
                {event.priceCents > 0 ? formatPrice(event.priceCents, event.currency) : t('price.free')}
                <Show when={!props.past && availability(event)}>
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
  );
}
