/**
 * `/book/{bookingTypeId}`, laid out like Cal.com's: what, how long, where and what it costs in
 * one summary; the timezone as one changeable line; a month calendar of days with free times
 * and the day's times as buttons (above the fold on a phone); then name and email. The chosen
 * time is re-checked with the server on submit; a time taken meanwhile (re-check or 409) is
 * answered with fresh times and a notice beside them. Offline, the booking waits in the outbox
 * and the page shows the outcome once it has been sent. After a submit the result or the error
 * is scrolled into view and focused. Confirmation: what happens next and "add to calendar".
 */
import { CoverImage } from '../components/cover-image';
import { COVER_SIZES } from '../../../shared/images';
import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, type JSX } from 'solid-js';
import { NetworkError } from '../../ui/errors';
import { fieldProblems } from '../../ui/forms';
import { Page } from '../../ui/page';
import { online } from '../../pwa';
import { A, navigate, searchParams, type RouteProps } from '../../router';
import { call, rpc } from '../../ui/trpc';
import type { BookingCreatedDto, PublicBookingTypeDto } from '../../../shared/booking';
import { isValidTimeZone, toUtcString, utcMs } from '../../../shared/time';
import type { When } from '../../../shared/time-format';
import { t as tr, tx } from '../../i18n/i18n';
import { dropAheadSlots, fetchMonthSlotsAhead, isSlotTaken, slotStillFree, TZ_STORAGE_KEY, type Slot } from '../booking';
import { createCachedResource, createLiveQuery, onceSettled } from '../cache';
import { createLater } from '../../ui/later';
import { SlotPicker, type SlotPickerHandle } from '../components/slot-picker';
import { createPaymentCheckout, PaymentPending } from '../components/payment-pending';
import { ErrorState, isThrottled, ResourceStates, SubmissionProblem, throttledRetryText } from '../components/states';
import { WhenLines } from '../components/when-lines';
import { MeetingLinkFact } from '../components/meeting-link';
import { CalendarLinks } from '../components/calendar-links';
import { ShareButton } from '../components/share-button';
import { clearDraft, draftSaver, loadPageDraft } from '../drafts';
import { buildIcs } from '../ics';
import { prefetchNonce, storedNonce } from '../nonce';
import { openVisitorDb } from '../open-db';
import { enqueue } from '../outbox';
import { goToCheckout } from '../payment';
import { kickOutbox, PENDING_FLAG, startOutboxRunner, type BookingSubmissionBody } from '../runner';
import { dayInZone, detectTimeZone, formatPrice } from '../time';
import { formatWhenHere } from '../when';
import '../../styles/visitor.css';

/** Words for a location mode without a label; an online link is only given after booking. */
const MODE_WORDS: Record<string, () => string> = {
  in_person: () => tr('book.modeInPerson'),
  virtual: () => tr('book.modeOnline'),
  phone: () => tr('book.modePhone'),
};

/**
 * The server's default label of each mode (the contract's English words, sent when the organizer
 * set none): shown in the reader's words; a label the organizer wrote is shown as written.
 */
const DEFAULT_MODE_LABELS: Record<string, string> = { in_person: 'In person', virtual: 'Online', phone: 'By phone' };

function modeLabel(t: Pick<PublicBookingTypeDto, 'locationMode' | 'locationLabel'>): string {
  if (!t.locationLabel || t.locationLabel === DEFAULT_MODE_LABELS[t.locationMode]) return MODE_WORDS[t.locationMode]?.() ?? t.locationLabel;
  return t.locationLabel;
}

/** The calendar entry's place (the .ics and the composer links alike): the mode, and an in-person address. */
function calendarLocation(t: Pick<PublicBookingTypeDto, 'locationMode' | 'locationLabel' | 'locationValue'>): string {
  return [modeLabel(t), t.locationMode === 'in_person' ? t.locationValue : ''].filter(Boolean).join(': ');
}

/** Where the appointment happens, as far as the visitor may know before booking. */
function locationBeforeBooking(t: Pick<PublicBookingTypeDto, 'locationMode' | 'locationLabel' | 'locationValue'>): string {
  if (t.locationMode === 'in_person') return [modeLabel(t), t.locationValue].filter(Boolean).join(': ');
  if (t.locationMode === 'custom') return t.locationLabel || t.locationValue;
  return modeLabel(t);
}

/** Moves the eyes and the focus to what a submit produced (the result or the error). */
function reveal(id: string): void {
  requestAnimationFrame(() => {
    const el = document.getElementById(id);
    if (!el) return;
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    el.scrollIntoView({ block: 'center' });
    el.focus({ preventScroll: true });
  });
}

/** The booking form's inputs by the field names the server's errors use. */
const BOOK_FIELD_IDS: Record<string, string> = { customerName: 'book-name', customerEmail: 'book-email', quantity: 'book-quantity' };

export default function BookPage(props: RouteProps): JSX.Element {
  const typeId = Number(props.params.id);
  const valid = Number.isInteger(typeId) && typeId > 0;
  const draftKey = `booking:${typeId}`;

  const type = createCachedResource(
    () => (valid ? `booking-type:${typeId}` : null),
    () => call(rpc().booking.type.query({ id: typeId })),
  );

  const savedTz = localStorage.getItem(TZ_STORAGE_KEY);
  const [tz, setTz] = createSignal(savedTz && isValidTimeZone(savedTz) ? savedTz : detectTimeZone());
  // this month's times go in the same request as the type (the picker takes them when it mounts)
  if (valid && navigator.onLine) {
    const today = dayInZone(Date.now(), tz());
    fetchMonthSlotsAhead(typeId, tz(), Number(today.slice(0, 4)), Number(today.slice(5, 7)));
  }
  onCleanup(dropAheadSlots);
  const [slot, setSlot] = createSignal<Slot | null>(null);
  const [name, setName] = createSignal('');
  const [email, setEmail] = createSignal('');
  const [quantity, setQuantity] = createSignal(1);
  const [notice, setNotice] = createSignal<string | null>(null);
  const [localError, setLocalError] = createSignal<string | null>(null);
  const [submitting, setSubmitting] = createSignal(false);
  let picker: SlotPickerHandle | undefined;
  /** Set by a submit: the next result or error is scrolled to and focused. */
  let revealNext = false;
  /** The booking this page just queued: when its answer asks for payment, the checkout opens. */
  let awaitingAnswer: number | null = null;

  const submissionId = () => {
    const raw = Number(searchParams().get('submission'));
    return Number.isInteger(raw) && raw > 0 ? raw : null;
  };
  const submission = createLiveQuery(submissionId, (db, id) => db.outbox.get(id));
  const state = () => submission()?.state;
  /** The fields the server refused, marked on the form (aria-invalid) and linked from the message. */
  const refused = createMemo(() => (state() === 'failed' ? fieldProblems(submission()?.error?.params) : {}));
  const created = () => submission()?.result as BookingCreatedDto | undefined;

  // Drafts: name, email, seats and the chosen time survive a reload.
  const saver = draftSaver(openVisitorDb, draftKey);
  const [draftLoaded, setDraftLoaded] = createSignal(false);
  // the nonce is kept for a booking sent offline later; fetched once the page's own answer is in, not before it
  onceSettled(type, () => void prefetchNonce());
  onMount(async () => {
    startOutboxRunner();
    const draft = await loadPageDraft(draftKey);
    if (draft) {
      setName(String(draft.name ?? ''));
      setEmail(String(draft.email ?? ''));
      setQuantity(Math.max(1, Number(draft.quantity) || 1));
      if (typeof draft.startUtc === 'string' && draft.startUtc && typeof draft.endUtc === 'string') {
        setSlot({ start_utc: draft.startUtc, end_utc: draft.endUtc, start: '', label: '', hosts: [], capacity_left: quantity() });
      }
    }
    setDraftLoaded(true);
  });
  // saved once something changes after the draft (or the empty form) is in: a visit that types nothing stores nothing
  let shown: string | undefined;
  createEffect(() => {
    const values = { name: name(), email: email(), quantity: String(quantity()), startUtc: slot()?.start_utc ?? '', endUtc: slot()?.end_utc ?? '' };
    if (!draftLoaded()) return;
    const now = JSON.stringify(values);
    if (shown !== undefined && now !== shown) saver.save(values);
    shown = now;
  });
  const onHide = () => void saver.flush();
  window.addEventListener('pagehide', onHide);
  onCleanup(() => {
    window.removeEventListener('pagehide', onHide);
    void saver.flush();
  });

  const changeTz = (zone: string) => {
    setTz(zone);
    localStorage.setItem(TZ_STORAGE_KEY, zone);
  };

  const slotTaken = () => {
    revealNext = false; // the notice beside the times takes the focus
    setSlot(null);
    setNotice(tr('book.taken'));
    void picker?.refresh();
  };

  /** A time in the host's zone (the type's) with the visitor's clock when it differs. */
  const when = (startUtc: string, endUtc?: string | null): When => {
    const t = type.value();
    const end = endUtc || (t ? toUtcString(utcMs(startUtc) + t.durationMinutes * 60_000) : null);
    return formatWhenHere({ startUtc, endUtc: end, zone: t?.timezone ?? tz(), viewerZone: tz() });
  };

  createEffect(
    on(
      () => [state(), localError()] as const,
      ([st, error]) => {
        if (!revealNext) return;
        if (error || (st === 'failed' && !isSlotTaken(submission()?.error?.code))) {
          revealNext = false;
          reveal('book-error');
        } else if (st === 'queued' || st === 'sending' || st === 'done') {
          if (st === 'done') revealNext = false;
          reveal('book-result');
        }
      },
    ),
  );

  // The outbox's answer: a time taken meanwhile goes back to the picker with fresh times.
  createEffect(
    on(
      () => [submissionId(), state(), submission()?.error?.code] as const,
      ([, st, code]) => {
        if (st === 'failed' && isSlotTaken(code)) slotTaken();
        if (st === 'done') {
          setSlot(null);
          void openVisitorDb()
            .then((db) => clearDraft(db, draftKey))
            .catch(() => undefined);
          const paymentUrl = created()?.paymentUrl;
          // only for the booking made on this page now: coming back later (Back, reload) shows the link instead
          if (paymentUrl && awaitingAnswer !== null && awaitingAnswer === submissionId()) {
            awaitingAnswer = null;
            goToCheckout(paymentUrl, `/book/${typeId}`);
          }
        }
      },
    ),
  );

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (submitting()) return;
    const t = type.value();
    const chosen = slot();
    setLocalError(null);
    if (!t) return;
    revealNext = true;
    if (!chosen) {
      setLocalError(tr('book.pickFirst'));
      return;
    }
    setSubmitting(true);
    try {
      if (online()) {
        try {
          if (!(await slotStillFree(typeId, chosen.start_utc, quantity(), tz()))) {
            slotTaken();
            return;
          }
        } catch (error) {
          // no answer: the booking waits in the outbox like any offline one
          if (!(error instanceof NetworkError)) throw error;
        }
      }
      await saver.flush();
      const nonce = await storedNonce().catch(() => null);
      const body: BookingSubmissionBody = {
        bookingTypeId: typeId,
        startUtc: chosen.start_utc,
        quantity: quantity(),
        customerName: name().trim(),
        customerEmail: email().trim(),
        customerTz: tz(),
        locationMode: t.locationMode,
      };
      const id = await enqueue(await openVisitorDb(), {
        kind: 'booking',
        targetId: typeId,
        body,
        nonce: nonce?.nonce ?? '',
        nonceExpiresUtc: nonce?.expiresUtc ?? '',
        notBefore: 0,
        queuedOffline: !online(),
      });
      localStorage.setItem(PENDING_FLAG, '1');
      setNotice(null);
      awaitingAnswer = id;
      navigate(`/book/${typeId}?submission=${id}`, { replace: true });
      void kickOutbox();
    } catch {
      setLocalError(tr('book.notPrepared'));
    } finally {
      setSubmitting(false);
    }
  };

  const bookAnother = () => {
    setNotice(null);
    navigate(`/book/${typeId}`, { replace: true });
  };

  const icsUrl = createMemo(() => {
    const t = type.value();
    const b = created();
    // an answer saved before the server named its calendar UID gets no file rather than a second entry
    if (!t || !b?.calendarUid) return null;
    const ics = buildIcs({
      // the mailed invite's UID, so its later update or cancel also reaches this copy
      uid: b.calendarUid,
      startUtc: b.startUtc,
      endUtc: b.endUtc,
      title: t.title,
      location: calendarLocation(t),
      description: tr('book.icsDescription'),
      stampUtc: toUtcString(Date.now()),
    });
    return URL.createObjectURL(new Blob([ics], { type: 'text/calendar' }));
  });
  createEffect(
    on(icsUrl, (url, previous) => {
      if (previous) URL.revokeObjectURL(previous);
      onCleanup(() => url && URL.revokeObjectURL(url));
    }),
  );

  // a booking waiting for its payment: where that payment stands now (paid or released meanwhile?)
  const payment = createPaymentCheckout(() => (state() === 'done' && created()?.status === 'pending_payment' ? created()?.paymentUrl : null));
  type Outcome = 'requested' | 'booked' | 'released' | 'payment';
  const outcome = (b: BookingCreatedDto): Outcome => {
    if (b.status === 'pending_approval') return 'requested';
    if (b.status !== 'pending_payment') return 'booked';
    const paid = payment.state();
    return paid === 'paid' ? 'booked' : paid === 'released' || paid === 'refunded' ? 'released' : 'payment';
  };
  const HEADINGS: Record<Outcome, () => string> = {
    requested: () => tr('book.requestSent'),
    booked: () => tr('book.booked'),
    released: () => tr('book.released'),
    payment: () => tr('book.paymentNeeded'),
  };

  const showPicker = () => state() === undefined || state() === 'failed';
  // the slot grid is drawn in the task after the type's text (docs/decisions/019-fast-first-paint.md)
  const pickerDrawn = createLater(type.value);
  // and the details form in the task after the grid
  const formDrawn = createLater(pickerDrawn);
  // On a phone the type's cover, text and hosts stand below the calendar: drawn once the calendar
  // has its times (or could not get them), they do not jump down as the month arrives (a layout
  // shift of 0.4 measured with a cover; docs/decisions/019-fast-first-paint.md).
  // (in a task of its own after the times: drawn with them, it made their task long)
  const [pickerSettled, setPickerSettled] = createSignal(false);
  const asideLater = createLater(pickerSettled);
  const asideDrawn = () => asideLater() || !showPicker();
  const maxSeats = () => Math.max(1, type.value()?.capacity ?? 1);
  /** What the chosen seats cost, for the button (the visitor sees the price before acting). */
  const total = () => {
    const t = type.value();
    return t && t.priceCents > 0 ? formatPrice(t.priceCents * quantity(), t.currency) : null;
  };
  const buttonLabel = () => {
    if (submitting()) return tr('book.checking');
    const request = type.value()?.requiresApproval ?? false;
    const action = online() ? (request ? 'request' : 'book') : request ? 'requestOffline' : 'bookOffline';
    const price = total();
    return price ? tr('book.submitPrice', { action, price }) : tr('book.submit', { action });
  };

  return (
    <Page title={type.value()?.title ?? tr('book.title')}>
      <p class="v-back">
        <A href="/events">{tr('book.allEvents')}</A>
      </p>
      <Show when={!valid || type.notFound()}>
        <ErrorState message={tr('book.notFound')} />
      </Show>
      <Show when={valid && !type.notFound()}>
        <ResourceStates resource={type} what="details" loading={tr('common.loading')} />
        <Show when={type.value()}>
          {(t) => (
            <div class="v-book">
              <ul class="v-book-summary" aria-label={tr('book.about')}>
                <li>{tr('book.minutes', { count: t().durationMinutes })}</li>
                <Show when={locationBeforeBooking(t())}>
                  {(where) => <li>{tx('book.whereLine', { where: where(), sr: (chunks) => <span class="v-sr-only">{chunks}</span> })}</li>}
                </Show>
                <li>
                  {t().priceCents > 0
                    ? maxSeats() > 1
                      ? tr('book.perSeat', { price: formatPrice(t().priceCents, t().currency) })
                      : formatPrice(t().priceCents, t().currency)
                    : tr('price.free')}
                </li>
                <Show when={t().requiresApproval}>
                  <li>{tr('book.hostConfirms')}</li>
                </Show>
              </ul>
              <Show when={asideDrawn()}>
                <div class="v-book-aside">
                  <CoverImage image={t().image} alt={t().title} sizes={COVER_SIZES.half} />
                  <Show when={t().description}>
                    <p class="v-book-about">{t().description}</p>
                  </Show>
                  <ShareButton title={t().title} path={`/book/${t().id}`} />
                  <Show when={(t().hostProfiles ?? []).length > 0}>
                    <section class="v-book-hosts" aria-labelledby="hosts-heading">
                      <h2 id="hosts-heading">{tr('book.hostsHeading', { count: t().hostProfiles.length })}</h2>
                      <ul>
                        <For each={t().hostProfiles}>
                          {(host) => (
                            <li class="v-book-host">
                              <Show when={host.photoUrl}>
                                {(src) => <img src={src()} alt={tr('book.hostPhotoAlt', { name: host.name })} width={64} height={64} />}
                              </Show>
                              <div>
                                <strong>{host.name}</strong>
                                <Show when={host.bio}>
                                  <p>{host.bio}</p>
                                </Show>
                              </div>
                            </li>
                          )}
                        </For>
                      </ul>
                    </section>
                  </Show>
                </div>
              </Show>

              <div class="v-book-main v-stack">
                <Show when={state() === 'queued' || state() === 'sending'}>
                  <div class="v-result waiting" role="status" id="book-result" tabindex="-1">
                    <Show
                      when={online() && isThrottled(submission())}
                      fallback={
                        <>
                          <h2>{!online() || submission()?.queuedOffline ? tr('book.savedOnPhone') : tr('book.sending')}</h2>
                          <p>
                            {online()
                              ? tr('book.sendingNow', { when: when(String(submission()!.body.startUtc)).text })
                              : tr('book.sentWhenOnline', { when: when(String(submission()!.body.startUtc)).text })}
                          </p>
                        </>
                      }
                    >
                      <h2>{tr('states.throttledHeading')}</h2>
                      <p>{throttledRetryText(submission()!.notBefore)}</p>
                    </Show>
                  </div>
                </Show>

                <Show when={state() === 'done' && created()}>
                  {(b) => (
                    <div class="v-result" classList={{ waiting: outcome(b()) === 'payment' }} role="status" id="book-result" tabindex="-1">
                      <h2>{HEADINGS[outcome(b())]()}</h2>
                      <dl class="v-facts">
                        <dt>{tr('book.what')}</dt>
                        <dd>{t().title}</dd>
                        <dt>{tr('book.when')}</dt>
                        <dd>
                          <WhenLines when={when(b().startUtc, b().endUtc)} />
                        </dd>
                        <Show when={locationBeforeBooking(t())}>
                          <dt>{tr('book.where')}</dt>
                          <dd>{locationBeforeBooking(t())}</dd>
                        </Show>
                        <MeetingLinkFact url={b().meetingUrl} />
                        <Show when={t().priceCents > 0}>
                          <dt>{tr('book.price')}</dt>
                          <dd>
                            {b().paymentUrl
                              ? formatPrice(t().priceCents, t().currency)
                              : tr('book.priceOnSite', { price: formatPrice(t().priceCents, t().currency) })}
                          </dd>
                        </Show>
                      </dl>
                      <h3>{tr('book.next')}</h3>
                      <Show
                        when={b().status === 'pending_payment' && b().paymentUrl}
                        fallback={
                          <p>
                            {tx('book.emailOnWay', {
                              email: String(submission()!.body.customerEmail),
                              approval: b().status === 'pending_approval' ? 'yes' : 'no',
                              b: (chunks) => <strong>{chunks}</strong>,
                            })}
                          </p>
                        }
                      >
                        {(url) => <PaymentPending paymentUrl={url()} kind="booking" checkout={payment.checkout()} answeredAt={submission()?.finishedAt} />}
                      </Show>
                      <div class="v-actions">
                        {/* only a booking that stands goes in a calendar: a request waits for the host, a booking for its payment */}
                        <Show when={icsUrl() && outcome(b()) === 'booked'}>
                          <CalendarLinks
                            file={{ href: icsUrl()!, filename: 'booking.ics', label: tr('book.addToCalendar') }}
                            event={{
                              title: t().title,
                              startUtc: b().startUtc,
                              endUtc: b().endUtc,
                              location: calendarLocation(t()),
                              details: tr('book.icsDescription'),
                            }}
                          />
                        </Show>
                        <button type="button" class="button button-quiet" onClick={bookAnother}>
                          {tr('book.another')}
                        </button>
                      </div>
                    </div>
                  )}
                </Show>

                <Show when={showPicker() && pickerDrawn()}>
                  <section class="v-stack" aria-labelledby="pick-heading">
                    <h2 id="pick-heading">{tr('book.pickTime')}</h2>
                    <SlotPicker
                      idPrefix="book"
                      typeId={typeId}
                      tz={tz()}
                      onTzChange={changeTz}
                      selected={slot()?.start_utc ?? null}
                      onSelect={(s) => {
                        setSlot(s);
                        if (s) setNotice(null);
                      }}
                      quantity={quantity()}
                      seatsPerSlot={t().capacity}
                      notice={notice()}
                      ref={(handle) => (picker = handle)}
                      onSettled={() => setPickerSettled(true)}
                    />
                  </section>

                  <Show when={formDrawn()}>
                    <section class="v-stack" aria-labelledby="details-heading">
                      <h2 id="details-heading">{tr('book.details')}</h2>
                      <form class="v-form" onSubmit={onSubmit} aria-describedby={localError() || submission()?.error ? 'book-error' : undefined}>
                        <div class="v-chosen" aria-live="polite">
                          <Show when={slot()} fallback={<p class="v-hint">{tr('book.noTime')}</p>}>
                            {(chosen) => <p>{tx('book.chosen', { when: () => <WhenLines when={when(chosen().start_utc, chosen().end_utc)} /> })}</p>}
                          </Show>
                        </div>
                        <div class="field">
                          <label for="book-name">{tr('book.name')}</label>
                          <input
                            id="book-name"
                            aria-invalid={refused().customerName ? 'true' : undefined}
                            name="customerName"
                            type="text"
                            autocomplete="name"
                            required
                            maxlength={190}
                            value={name()}
                            onInput={(e) => setName(e.currentTarget.value)}
                          />
                        </div>
                        <div class="field">
                          <label for="book-email">{tr('book.email')}</label>
                          <input
                            id="book-email"
                            aria-invalid={refused().customerEmail ? 'true' : undefined}
                            name="customerEmail"
                            type="email"
                            inputmode="email"
                            autocomplete="email"
                            required
                            maxlength={254}
                            value={email()}
                            onInput={(e) => setEmail(e.currentTarget.value)}
                          />
                        </div>
                        <Show when={maxSeats() > 1}>
                          <div class="field">
                            <label for="book-quantity">{tr('book.seats')}</label>
                            <input
                              id="book-quantity"
                              aria-invalid={refused().quantity ? 'true' : undefined}
                              name="quantity"
                              type="number"
                              inputmode="numeric"
                              min="1"
                              max={maxSeats()}
                              value={quantity()}
                              onInput={(e) => {
                                const n = Number(e.currentTarget.value);
                                if (Number.isInteger(n) && n >= 1 && n <= maxSeats()) setQuantity(n);
                              }}
                            />
                          </div>
                        </Show>
                        <Show when={t().priceCents > 0}>
                          {/* an approval type is always paid on site; otherwise the edition decides, which this page cannot see */}
                          <p class="v-hint">{t().requiresApproval ? tr('book.paidOnSite') : tr('book.paidLater')}</p>
                        </Show>
                        <Show when={t().requiresApproval}>
                          <p class="v-hint">{tr('book.requestHint')}</p>
                        </Show>
                        <Show when={!online()}>
                          <p class="v-hint">{tr('book.offlineHint')}</p>
                        </Show>
                        <button type="submit" class="button" aria-disabled={submitting()}>
                          {buttonLabel()}
                        </button>
                        <Show when={localError()}>{(message) => <SubmissionProblem id="book-error" error={{ message: message() }} />}</Show>
                        <Show when={!localError() && state() === 'failed' && !isSlotTaken(submission()?.error?.code) && submission()?.error}>
                          {(error) => <SubmissionProblem id="book-error" error={error()} fieldIds={BOOK_FIELD_IDS} />}
                        </Show>
                      </form>
                    </section>
                  </Show>
                </Show>
              </div>
            </div>
          )}
        </Show>
      </Show>
    </Page>
  );
}
