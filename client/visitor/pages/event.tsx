/**
 * `/events/{id}`: the event and its sign-up form. Works offline once visited (event, extra
 * fields and form token come from `svc-visitor`); a sign-up made offline waits in the outbox
 * and the page tells the outcome when it has been sent. What was typed is kept as a draft.
 * The event's own questions (extended edition) are rendered from the event and checked here
 * with the server's rules before anything is queued (docs/api.md#custom-fields).
 */
import { CoverImage } from '../components/cover-image';
import { COVER_SIZES } from '../../../shared/images';
import { createEffect, createMemo, createSignal, For, on, onCleanup, onMount, Show, type JSX } from 'solid-js';
import { Page } from '../../ui/page';
import { isoDateTime } from '../../ui/format';
import { online } from '../../pwa';
import { A, navigate, searchParams, type RouteProps } from '../../router';
import { call, rpc } from '../../ui/trpc';
import { fieldProblems, revealResult } from '../../ui/forms';
import type { SignupResult } from '../../../shared/attendees';
import { priceOrder, type PricedOrder } from '../../../shared/pricing';
import type { TicketOfferDto } from '../../../shared/tickets';
import {
  checkCustomAnswers,
  customAnswersMessage,
  customFieldInputName,
  CUSTOM_FIELD_INPUT_PREFIX,
  type CustomFieldDefinition,
} from '../../../shared/custom-fields';
import { utcMs } from '../../../shared/time';
import { createCachedResource, createLiveQuery, onceSettled } from '../cache';
import { createPaymentCheckout, PaymentPending } from '../components/payment-pending';
import { ErrorState, isThrottled, ResourceStates, SubmissionProblem, throttledRetryText } from '../components/states';
import { PriceSummary, priceSummaryHasButton } from '../components/price-summary';
import { readTicketQuantities, TicketPicker, VOUCHER_FIELD } from '../components/ticket-picker';
import { TicketQr } from '../components/ticket-qr';
import { CalendarLinks } from '../components/calendar-links';
import { DirectionsLinks } from '../components/directions-links';
import { ShareButton } from '../components/share-button';
import { signedTicketPassUrl, signedTicketPdfUrl } from '../links';
import { eventIcsUrl } from '../ics';
import { clearDraft, draftSaver, loadPageDraft } from '../drafts';
import {
  applyValues,
  buildSignupBody,
  collectCustomFields,
  collectValues,
  formEntries,
  HONEYPOT_FIELD,
  maxSeats,
  parseQuantity,
  seatsOverflowWaitlist,
  splitAroundOwnFields,
  stripPrefix,
  type FieldValues,
} from '../form-fields';
import { prefetchNonce, storedNonce } from '../nonce';
import { openVisitorDb } from '../open-db';
import { enqueue } from '../outbox';
import { goToCheckout } from '../payment';
import { kickOutbox, PENDING_FLAG, startOutboxRunner, type SignupSubmissionBody } from '../runner';
import { dayInWords, dayInZone, detectTimeZone, formatPrice } from '../time';
import { WhenLines } from '../components/when-lines';
import { t, tx } from '../../i18n/i18n';
import { formatWhenHere } from '../when';
import '../../styles/visitor.css';

/** The price summary's stand-in for an event sold at its own price, without categories. */
const IMPLICIT_CATEGORY = 0;
/** docs/api.md#errors minimum fill time, plus a margin for the request's way to the server. */
const MIN_FILL_MS = 3_000 + 400;
/** The sign-up's own inputs: the server's field name → the input's id (errors link and mark them). */
const CORE_FIELD_IDS: Record<string, string> = { display_name: 'signup-name', email: 'signup-email', quantity: 'signup-quantity', voucher: 'signup-voucher' };

export default function EventPage(props: RouteProps): JSX.Element {
  const eventId = Number(props.params.id);
  const valid = Number.isInteger(eventId) && eventId > 0;
  const tz = detectTimeZone();
  const draftKey = `signup:${eventId}`;

  const event = createCachedResource(
    () => (valid ? `event:${eventId}` : null),
    () => call(rpc().events.get.query({ id: eventId })),
  );
  const form = createCachedResource(
    () => (valid ? `form:${eventId}` : null),
    () => call(rpc().attendees.form.query({ id: eventId })),
  );
  /** What the form sells (docs/api.md#tickets): ticket categories, a code's terms, how paid tickets are paid. */
  const offer = createCachedResource(
    () => (valid ? `offer:${eventId}` : null),
    () => call(rpc().tickets.offer.query({ id: eventId })),
  );
  /** The offer as a code the server accepted changed it (its hidden categories, its terms). */
  const [codeOffer, setCodeOffer] = createSignal<TicketOfferDto | null>(null);
  const [codeError, setCodeError] = createSignal<string | undefined>();
  const [applyingCode, setApplyingCode] = createSignal(false);
  const shownOffer = () => codeOffer() ?? offer.value();
  const sellsCategories = () => shownOffer()?.sellsCategories === true;
  const categories = () => shownOffer()?.categories ?? [];
  /** Tickets chosen per category, as typed. */
  const [chosen, setChosen] = createSignal<Map<number, number>>(new Map());
  const extraHtml = createMemo(() => form.value()?.html ?? '');
  /** The event's own questions; their server-rendered copy is left out of the injected HTML. */
  const ownFields = createMemo(() => event.value()?.fields ?? []);
  const injected = createMemo(() => (ownFields().length > 0 ? splitAroundOwnFields(extraHtml()) : { before: extraHtml(), after: '' }));
  /** Field key → why its answer is refused (the phone's check, or the server's answer). */
  const [fieldErrors, setFieldErrors] = createSignal<Record<string, string>>({});

  const submissionId = () => {
    const raw = Number(searchParams().get('submission'));
    return Number.isInteger(raw) && raw > 0 ? raw : null;
  };
  const submission = createLiveQuery(submissionId, (db, id) => db.outbox.get(id));
  /** A paid sign-up's answer: the seats are held in an order until its checkout is paid. */
  const paymentUrl = (): string | null => {
    const answer = submission()?.state === 'done' ? (submission()?.result as SignupResult | undefined) : undefined;
    return answer && 'paymentUrl' in answer ? answer.paymentUrl : null;
  };
  const [localError, setLocalError] = createSignal<string | null>(null);
  const [submitting, setSubmitting] = createSignal(false);
  /** The server's refusal of name, email or seats, per input (plain words, client/ui/forms.ts); an edit clears its own. */
  const [coreErrors, setCoreErrors] = createSignal<Record<string, string>>({});
  /** The seats typed so far: a number beyond the places left is warned about before sending. */
  const [quantityTyped, setQuantityTyped] = createSignal(1);
  /** The message a submit ends with (result or error), brought into view and focused. */
  let resultEl: HTMLElement | undefined;
  /** The sign-up this page just queued: when its answer asks for payment, the checkout opens. */
  let awaitingAnswer: number | null = null;

  let formEl: HTMLFormElement | undefined;
  let values: FieldValues = {};
  const saver = draftSaver(openVisitorDb, draftKey);

  // the nonce is kept for a sign-up sent offline later; fetched once the page's own answer is in, not before it
  onceSettled(form, () => void prefetchNonce());
  onMount(async () => {
    startOutboxRunner();
    values = (await loadPageDraft(draftKey)) ?? {};
    if (formEl) applyValues(formEl, values);
  });
  const onHide = () => void saver.flush();
  window.addEventListener('pagehide', onHide);
  onCleanup(() => {
    window.removeEventListener('pagehide', onHide);
    void saver.flush();
  });

  // The injected fields replace their DOM when the HTML (or the event's questions) arrives: put the typed values back.
  createEffect(
    on([extraHtml, ownFields], () => {
      queueMicrotask(() => formEl && applyValues(formEl, values));
    }),
  );

  // A sign-up that went through: the draft has done its job; a paid one goes on to the checkout.
  createEffect(() => {
    if (submission()?.state === 'done') {
      // the places left changed with this sign-up
      void event.refresh();
      values = {};
      void openVisitorDb()
        .then((db) => clearDraft(db, draftKey))
        .catch(() => undefined);
      const url = paymentUrl();
      // only for the sign-up made on this page now: coming back later (Back, reload) shows the link instead
      if (url && awaitingAnswer !== null && awaitingAnswer === submissionId()) {
        awaitingAnswer = null;
        goToCheckout(url, `/events/${eventId}`);
      }
    }
  });

  const remember = () => {
    if (!formEl) return;
    values = collectValues(formEntries(formEl), (name) => name !== HONEYPOT_FIELD);
    saver.save(values);
    readQuantity();
  };

  const readQuantity = () => {
    if (formEl) setChosen(readTicketQuantities(formEl, categories()));
    const typed = Number(formEl?.querySelector<HTMLInputElement>('input[name="quantity"]')?.value ?? '1');
    setQuantityTyped(Number.isInteger(typed) && typed > 0 ? typed : 1);
  };

  /** An edited input loses the server's mark on it. */
  const clearCoreError = (e: Event) => {
    const name = (e.target as HTMLInputElement | null)?.name ?? '';
    if (coreErrors()[name]) setCoreErrors(({ [name]: _gone, ...rest }) => rest);
  };

  /** "Apply": the server says what the typed code opens (its hidden categories and its terms). */
  const applyCode = async (): Promise<boolean> => {
    const typed = formEl?.querySelector<HTMLInputElement>(`input[name="${VOUCHER_FIELD}"]`)?.value.trim() ?? '';
    setCodeError(undefined);
    if (typed === '') return true;
    setApplyingCode(true);
    try {
      setCodeOffer(await call(rpc().tickets.offer.query({ id: eventId, voucher: typed })));
      if (coreErrors().voucher) setCoreErrors(({ voucher: _gone, ...rest }) => rest);
      queueMicrotask(() => formEl && applyValues(formEl, values));
      return true;
    } catch (error) {
      setCodeError(error instanceof Error && 'status' in error ? error.message : t('tickets.codeOffline'));
      return false;
    } finally {
      setApplyingCode(false);
    }
  };
  const removeCode = () => {
    setCodeOffer(null);
    setCodeError(undefined);
    const input = formEl?.querySelector<HTMLInputElement>(`input[name="${VOUCHER_FIELD}"]`);
    if (input) input.value = '';
    remember();
  };

  const checkAnswers = () => checkCustomAnswers(ownFields(), formEl ? stripPrefix(collectCustomFields(formEntries(formEl))) : {});

  /** While typing, a flagged answer loses its message once it is right; nothing new is flagged. */
  const recheck = () => {
    const flagged = Object.keys(fieldErrors());
    if (flagged.length === 0) return;
    const result = checkAnswers();
    const errors = result.ok ? {} : result.errors;
    setFieldErrors(Object.fromEntries(flagged.filter((key) => errors[key] !== undefined).map((key) => [key, errors[key]!])));
  };

  /** The browser refused the form (a required or typed input): say why at our fields too, in our words. */
  const onInvalid = (e: Event) => {
    const target = e.target as HTMLInputElement;
    if (!target.name?.startsWith(CUSTOM_FIELD_INPUT_PREFIX)) return;
    const key = target.name.slice(CUSTOM_FIELD_INPUT_PREFIX.length);
    const result = checkAnswers();
    const errors = result.ok ? {} : result.errors;
    setFieldErrors((current) => ({ ...current, ...errors, ...(errors[key] === undefined ? { [key]: target.validationMessage } : {}) }));
  };

  // The server refused answers the phone had accepted (its definitions changed meanwhile): show them at the fields.
  createEffect(() => {
    const error = submission()?.state === 'failed' ? submission()?.error : undefined;
    const params = error?.params ?? {};
    const known = new Set(ownFields().map((f) => f.key));
    const atFields = Object.entries(params)
      .filter(([name]) => name.startsWith(CUSTOM_FIELD_INPUT_PREFIX) && known.has(name.slice(CUSTOM_FIELD_INPUT_PREFIX.length)))
      .map(([name, reason]) => [name.slice(CUSTOM_FIELD_INPUT_PREFIX.length), String(reason)]);
    if (atFields.length > 0) setFieldErrors(Object.fromEntries(atFields));
  });

  // The server refused the name, email or seats: mark those inputs, in plain words.
  createEffect(
    on(
      () => (submission()?.state === 'failed' ? submission()?.error : undefined),
      (error) => {
        const problems = fieldProblems(error?.params);
        setCoreErrors(Object.fromEntries(Object.entries(problems).filter(([name]) => CORE_FIELD_IDS[name] !== undefined)));
      },
    ),
  );

  // Keep the result where the eyes are: when the answer comes, scroll to it and focus it.
  createEffect(
    on(
      () => [submission()?.id, submission()?.state] as const,
      ([, current], previous) => {
        const settled = current === 'done' || current === 'failed';
        if (settled && (previous === undefined || previous[1] !== current)) revealResult(() => resultEl);
      },
    ),
  );
  /** A refusal on the phone that names no field: the message takes the focus. */
  const refuseHere = (message: string) => {
    setLocalError(message);
    revealResult(() => resultEl);
  };

  const windowState = createMemo(() => {
    const e = event.value();
    if (!e) return 'open';
    const now = Date.now();
    if (now > utcMs(e.endsUtc ?? e.startsUtc)) return 'ended';
    if (e.signupOpensUtc && now < utcMs(e.signupOpensUtc)) return 'not-yet';
    if (now >= utcMs(e.signupClosesUtc ?? e.startsUtc)) return 'closed';
    return 'open';
  });

  /** Seats as the server counted them when the event was fetched (the window above is checked on the phone's clock). */
  const seatsState = () => {
    const s = event.value()?.signupState;
    return s === 'full_waitlist' || s === 'full' ? s : 'free';
  };
  /** The day sign-up ended, in the event's own zone: `Tuesday, 20 November`. */
  const closedDay = (ev: { signupClosesUtc: string | null; startsUtc: string; timezone: string }) =>
    dayInWords(dayInZone(utcMs(ev.signupClosesUtc ?? ev.startsUtc), ev.timezone));
  const overflowing = () => {
    const ev = event.value();
    return ev !== undefined && seatsState() === 'free' && seatsOverflowWaitlist(quantityTyped(), ev);
  };
  const submitLabel = () =>
    seatsState() === 'full_waitlist' || overflowing()
      ? online()
        ? t('signup.submitJoinWaitlist')
        : t('signup.submitJoinWaitlistOffline')
      : online()
        ? t('signup.submit')
        : t('signup.submitOffline');

  const priced = createMemo<PricedOrder | null>(() => {
    if (!sellsCategories()) {
      // one implicit category from the event's price; seats that join the waitlist are not paid now
      const ev = event.value();
      if (!ev || ev.priceCents <= 0 || seatsState() === 'full_waitlist' || overflowing()) return null;
      return priceOrder({
        categories: [{ id: IMPLICIT_CATEGORY, priceCents: ev.priceCents, taxRateBp: 0, taxMode: 'included' }],
        lines: [{ categoryId: IMPLICIT_CATEGORY, quantity: quantityTyped() }],
      });
    }
    const lines = [...chosen()].map(([categoryId, quantity]) => ({ categoryId, quantity }));
    if (lines.length === 0) return null;
    const known = new Set(categories().map((c) => c.id));
    if (!lines.every((l) => known.has(l.categoryId))) return null;
    return priceOrder({ categories: categories(), lines, voucher: shownOffer()?.voucher ?? null });
  });
  const categoryNames = createMemo(() => new Map(categories().map((c) => [c.id, c.name])));
  /** The order goes on to online payment: the price summary carries the submit button. */
  const summaryHasButton = () => {
    const order = priced();
    return order !== null && priceSummaryHasButton(order, shownOffer()?.onlinePayment === true);
  };
  const onSubmit = async (e: SubmitEvent) => {
    e.preventDefault();
    if (submitting() || !formEl) return;
    const ev = event.value();
    const formData = form.value();
    setLocalError(null);
    if (!ev || !formData) {
      refuseHere(t('signup.errorNotLoaded'));
      return;
    }
    const entries = formEntries(formEl);
    const all = collectValues(entries);
    const most = maxSeats(ev);
    const tickets = sellsCategories() ? [...readTicketQuantities(formEl, categories())].map(([categoryId, quantity]) => ({ categoryId, quantity })) : null;
    const typedCode = String(all[VOUCHER_FIELD] ?? '').trim();
    if (tickets) {
      const total = tickets.reduce((n, l) => n + l.quantity, 0);
      if (total === 0) {
        refuseHere(t('tickets.chooseOne'));
        return;
      }
      if (total > ev.maxPerSignup) {
        refuseHere(t('tickets.tooMany', { max: ev.maxPerSignup }));
        return;
      }
      // a code typed but not applied: applied now, so the visitor sees its price before paying
      if (typedCode !== '' && online() && codeOffer()?.voucher?.code.toLowerCase() !== typedCode.toLowerCase()) {
        if (!(await applyCode())) return;
        setLocalError(null);
        return;
      }
    }
    const quantity = tickets ? tickets.reduce((n, l) => n + l.quantity, 0) : parseQuantity(String(all.quantity ?? '1'), most);
    if (quantity === null) {
      setCoreErrors({ quantity: t('form.seatsRange', { max: most }) });
      setLocalError(t('signup.errorSeatsWhole', { max: most }));
      formEl.querySelector<HTMLElement>('#signup-quantity')?.focus();
      return;
    }
    const answers = checkAnswers();
    if (!answers.ok) {
      setFieldErrors(answers.errors);
      setLocalError(customAnswersMessage(ownFields(), answers.errors));
      formEl.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setFieldErrors({});
    setCoreErrors({});
    setSubmitting(true);
    try {
      remember();
      await saver.flush();
      const nonce = await storedNonce().catch(() => null);
      const body: SignupSubmissionBody = buildSignupBody({
        email: String(all.email ?? ''),
        displayName: String(all.display_name ?? ''),
        quantity,
        custom: collectCustomFields(entries),
        formToken: formData.formToken,
        honeypot: String(all[HONEYPOT_FIELD] ?? ''),
        ...(tickets ? { tickets, voucher: typedCode } : {}),
      });
      const id = await enqueue(await openVisitorDb(), {
        kind: 'signup',
        targetId: eventId,
        body,
        nonce: nonce?.nonce ?? '',
        nonceExpiresUtc: nonce?.expiresUtc ?? '',
        // the form token's render time must be 3 s old when it reaches the server
        notBefore: (form.fetchedAt() ?? 0) + MIN_FILL_MS,
        queuedOffline: !online(),
      });
      localStorage.setItem(PENDING_FLAG, '1');
      awaitingAnswer = id;
      navigate(`/events/${eventId}?submission=${id}`, { replace: true });
      void kickOutbox();
    } catch {
      refuseHere(t('signup.errorNotStored'));
    } finally {
      setSubmitting(false);
    }
  };

  const again = () => navigate(`/events/${eventId}`, { replace: true });
  const state = () => submission()?.state;
  const showForm = () => state() === undefined || state() === 'failed';
  const result = () => submission()?.result as SignupResult | undefined;
  const email = () => String(submission()?.body.email ?? '');
  const seats = () => Number(submission()?.body.quantity ?? 1) || 1;
  const ticketCode = () => {
    const answer = result();
    return answer && 'ticketCode' in answer && answer.status === 'going' ? answer.ticketCode : undefined;
  };
  /** The one ticket's Wallet pass (docs/api.md#wallet-pass): the PDF's key opens it, when the server makes passes. */
  const ticketPassHref = () => {
    const answer = result();
    return answer && 'ticketPdfToken' in answer && answer.status === 'going' && answer.ticketPdfToken && answer.walletAvailable
      ? signedTicketPassUrl(answer.ticketPdfToken)
      : undefined;
  };
  /** The one ticket's PDF (docs/api.md#pdf-ticket), with the key the answer carries. */
  const ticketPdfHref = () => {
    const answer = result();
    return answer && 'ticketPdfToken' in answer && answer.status === 'going' && answer.ticketPdfToken ? signedTicketPdfUrl(answer.ticketPdfToken) : undefined;
  };
  /**
   * What a ticket the sign-up gave costs at the door: nothing is charged online without the
   * payment path, so a priced ticket says so on the ticket too (its category's price for its
   * seats, less the code). 0 when nothing is due there.
   */
  const dueAtDoorOf = (categoryId: number | null | undefined, people: number): number => {
    const o = shownOffer();
    if (!o || o.onlinePayment) return 0;
    if (!sellsCategories()) {
      const ev = event.value();
      return ev && ev.priceCents > 0 ? ev.priceCents * people : 0;
    }
    const category = categories().find((c) => c.id === categoryId);
    if (!category || category.priceCents === 0) return 0;
    return priceOrder({ categories: [category], lines: [{ categoryId: category.id, quantity: people }], voucher: o.voucher ?? null }).grossCents;
  };
  /** A sign-up of several categories: each going ticket with its category's name. */
  const categorizedTickets = createMemo(() => {
    const answer = result();
    const rows = answer && 'tickets' in answer ? (answer.tickets ?? []) : [];
    const lines = (submission()?.body.tickets ?? []) as Array<{ categoryId: number; quantity: number }>;
    return rows.flatMap((row) => {
      if (row.status !== 'going' || !row.ticketCode) return [];
      const people = lines.find((l) => l.categoryId === row.ticketCategoryId)?.quantity ?? 1;
      return [
        {
          code: row.ticketCode,
          pdfHref: row.ticketPdfToken ? signedTicketPdfUrl(row.ticketPdfToken) : undefined,
          walletHref: row.ticketPdfToken && row.walletAvailable ? signedTicketPassUrl(row.ticketPdfToken) : undefined,
          name: categoryNames().get(row.ticketCategoryId ?? -1) ?? t('tickets.ticket'),
          people,
          due: dueAtDoorOf(row.ticketCategoryId, people),
        },
      ];
    });
  });
  /** The one ticket's amount due at the door (a sign-up of one category, or an event at its own price). */
  const singleDue = () => {
    const many = categorizedTickets();
    if (many.length > 1) return 0;
    return many.length === 1 ? many[0]!.due : dueAtDoorOf(null, seats());
  };
  const dueText = (cents: number) => t('price.payAtDoor', { amount: formatPrice(cents, shownOffer()!.currency) });
  /** The price in the facts: the event's own, or its categories' lowest ("From €18.00"). */
  const priceFact = (ev: { priceCents: number; currency: string }): string => {
    const offered = categories();
    if (!sellsCategories() || offered.length === 0) return ev.priceCents > 0 ? formatPrice(ev.priceCents, ev.currency) : t('price.free');
    const prices = offered.map((c) => c.priceCents);
    const lowest = Math.min(...prices);
    const currency = shownOffer()!.currency;
    if (Math.max(...prices) === 0) return t('price.free');
    return lowest === Math.max(...prices) ? formatPrice(lowest, currency) : t('tickets.priceFrom', { amount: formatPrice(lowest, currency) });
  };
  /** "Add to calendar" for a sign-up that got its seats: an .ics built on the phone. */
  const calendarUrl = createMemo<string | undefined>((previous) => {
    if (previous) URL.revokeObjectURL(previous);
    const ev = event.value();
    const answer = result();
    if (!ev || !answer || !('status' in answer) || answer.status !== 'going' || !answer.calendarUid || paymentUrl()) return undefined;
    // the mailed event.ics's UID: one calendar entry whichever copy is kept
    return eventIcsUrl(ev, answer.calendarUid);
  });
  onCleanup(() => {
    const url = calendarUrl();
    if (url) URL.revokeObjectURL(url);
  });
  // a paid sign-up: where its payment stands now (paid or released meanwhile?)
  const payment = createPaymentCheckout(paymentUrl);

  return (
    <Page title={event.value()?.title ?? t('event.title')}>
      <p>
        <A href="/events">{t('event.allEvents')}</A>
      </p>
      <Show when={!valid || event.notFound()}>
        <ErrorState message={t('event.notFound')} />
      </Show>
      <Show when={valid && !event.notFound()}>
        <ResourceStates resource={event} what="event" loading={t('event.loading')} />
        <Show when={event.value()}>
          {(ev) => (
            <div class="v-stack">
              <CoverImage image={ev().image} alt={ev().title} sizes={COVER_SIZES.page} />
              <dl class="v-facts">
                <dt>{t('event.when')}</dt>
                <dd>
                  <time datetime={isoDateTime(ev().startsUtc)}>
                    <WhenLines when={formatWhenHere({ startUtc: ev().startsUtc, endUtc: ev().endsUtc, zone: ev().timezone, viewerZone: tz })} />
                  </time>
                </dd>
                <Show when={ev().venue || ev().venueAddress || typeof ev().venueLat === 'number'}>
                  <dt>{t('event.where')}</dt>
                  <dd>
                    <Show when={ev().venue}>
                      <span class="v-line">{ev().venue}</span>
                    </Show>
                    <Show when={ev().venueAddress}>
                      <span class="v-line">{ev().venueAddress}</span>
                    </Show>
                    <DirectionsLinks place={ev()} />
                  </dd>
                </Show>
                <dt>{t('event.price')}</dt>
                <dd>{priceFact(ev())}</dd>
                <Show when={ev().placesLeft !== null}>
                  <dt>{t('event.places')}</dt>
                  <dd>
                    {ev().placesLeft === 0
                      ? ev().waitlist
                        ? t('availability.fullWaitlist')
                        : t('availability.full')
                      : t('availability.placesLeft', { count: ev().placesLeft })}
                  </dd>
                </Show>
              </dl>
              <Show when={ev().description}>
                <p style={{ 'white-space': 'pre-line' }}>{ev().description}</p>
              </Show>
              <ShareButton title={ev().title} path={`/events/${ev().id}`} />

              {/* an event that is over says so instead of offering a sign-up (docs/api.md#rest, "Admin lists and figures") */}
              <Show
                when={windowState() !== 'ended'}
                fallback={
                  <div class="v-notice" role="status">
                    <p>{t('event.ended')}</p>
                    <p>
                      <A href="/events">{t('signup.otherEvents')}</A>
                    </p>
                  </div>
                }
              >
                <section class="v-stack" aria-labelledby="signup-heading">
                  <h2 id="signup-heading">{t('signup.heading')}</h2>

                  <Show when={state() === 'queued' || state() === 'sending'}>
                    <div class="v-result waiting" role="status">
                      <Show
                        when={online() && isThrottled(submission())}
                        fallback={
                          <>
                            <h3>{online() && !submission()?.queuedOffline ? t('signup.sending') : t('signup.savedOnPhone')}</h3>
                            <Show when={!online() || submission()?.queuedOffline} fallback={<p>{t('signup.oneMoment')}</p>}>
                              <p>{online() ? t('signup.sendingNow') : t('signup.sentWhenOnline')}</p>
                            </Show>
                          </>
                        }
                      >
                        <h3>{t('states.throttledHeading')}</h3>
                        <p>{throttledRetryText(submission()!.notBefore)}</p>
                      </Show>
                    </div>
                  </Show>

                  <Show when={state() === 'done' && paymentUrl()}>
                    {(url) => (
                      <div
                        ref={(el) => (resultEl = el)}
                        tabindex="-1"
                        class="v-result"
                        classList={{ waiting: payment.state() === undefined || payment.state() === 'pending' }}
                        role="status"
                      >
                        <h3>
                          {payment.state() === 'paid'
                            ? t('signup.going')
                            : payment.state() === 'released' || payment.state() === 'refunded'
                              ? t('signup.seatsReleased')
                              : t('signup.paymentNeeded')}
                        </h3>
                        <Show when={payment.state() === undefined || payment.state() === 'pending'}>
                          <p>{tx('signup.heldUntilPaid', { seats: seats(), email: email(), b: strong })}</p>
                        </Show>
                        <PaymentPending paymentUrl={url()} kind="order" checkout={payment.checkout()} answeredAt={submission()?.finishedAt} />
                        <Show when={payment.state() === 'released' || payment.state() === 'refunded'}>
                          <button type="button" class="button button-quiet" onClick={again}>
                            {t('signup.again')}
                          </button>
                        </Show>
                      </div>
                    )}
                  </Show>

                  <Show when={state() === 'done' && !paymentUrl()}>
                    <div ref={(el) => (resultEl = el)} tabindex="-1" class="v-result" classList={{ waitlist: result()?.status === 'waitlist' }} role="status">
                      <Show
                        when={result()?.status === 'waitlist'}
                        fallback={
                          <>
                            <h3>{t('signup.going')}</h3>
                            <p class="v-seats">{tx('signup.booked', { seats: seats(), email: email(), b: strong })}</p>
                            <Show when={singleDue() > 0}>
                              <p class="price-pay-at-door">{dueText(singleDue())}</p>
                            </Show>
                            <Show
                              when={categorizedTickets().length > 1}
                              fallback={
                                <Show when={ticketCode()}>{(code) => <TicketQr code={code()} pdfHref={ticketPdfHref()} walletHref={ticketPassHref()} />}</Show>
                              }
                            >
                              <ol class="ticket-list">
                                <For each={categorizedTickets()}>
                                  {(ticket, i) => (
                                    <li>
                                      <h4>{t('tickets.ticketOf', { n: i() + 1, name: ticket.name, people: ticket.people })}</h4>
                                      <Show when={ticket.due > 0}>
                                        <p class="price-pay-at-door">{dueText(ticket.due)}</p>
                                      </Show>
                                      <TicketQr code={ticket.code} pdfHref={ticket.pdfHref} walletHref={ticket.walletHref} />
                                    </li>
                                  )}
                                </For>
                              </ol>
                            </Show>
                            <p>{t('signup.showQr')}</p>
                            <Show when={calendarUrl()}>
                              {(href) => (
                                <CalendarLinks
                                  file={{ href: href(), filename: `event-${eventId}.ics`, label: t('signup.addToCalendar') }}
                                  event={{
                                    title: ev().title,
                                    startUtc: ev().startsUtc,
                                    endUtc: ev().endsUtc,
                                    location: ev().venue,
                                    // the cancel link is a secret the page never holds: the mail carries it
                                    details: t('signup.calendarDetails'),
                                  }}
                                />
                              )}
                            </Show>
                          </>
                        }
                      >
                        <h3>{t('signup.waitlistHeading')}</h3>
                        <p class="v-seats">{tx('signup.waitlistSeats', { seats: seats(), email: email(), b: strong })}</p>
                        <p>{tx('signup.waitlistExplain', { email: email(), b: strong })}</p>
                      </Show>
                      <button type="button" class="button button-quiet" onClick={again}>
                        {t('signup.someoneElse')}
                      </button>
                    </div>
                  </Show>

                  <Show when={showForm()}>
                    <Show when={windowState() === 'closed'}>
                      <div class="v-notice">
                        <p>{t('signup.closedOn', { day: closedDay(ev()) })}</p>
                        <p>
                          <A href="/events">{t('signup.otherEvents')}</A>
                        </p>
                      </div>
                    </Show>
                    <Show when={windowState() === 'not-yet'}>
                      <p class="v-notice">
                        {t('signup.opensOn', { when: formatWhenHere({ startUtc: ev().signupOpensUtc!, zone: ev().timezone, viewerZone: tz }).text })}
                      </p>
                    </Show>
                    <Show when={windowState() === 'open' && seatsState() === 'full'}>
                      <div class="v-notice">
                        <p>{t('signup.fullNoWaitlist')}</p>
                        <p>
                          <A href="/events">{t('signup.otherEvents')}</A>
                        </p>
                      </div>
                    </Show>
                    <Show when={windowState() === 'open' && seatsState() !== 'full'}>
                      <Show when={seatsState() === 'full_waitlist'}>
                        <p class="v-notice" id="signup-waitlist-note">
                          {t('signup.waitlistNote')}
                        </p>
                      </Show>
                      <Show when={form.value() === undefined && form.loading()}>
                        <p class="status-text" role="status">
                          {t('signup.formLoading')}
                        </p>
                      </Show>
                      <Show when={form.value() === undefined && !form.loading() && form.error()}>
                        <ErrorState message={form.error()!} onRetry={() => void form.refresh()} />
                      </Show>
                      <Show when={form.value()}>
                        <form
                          ref={(el) => {
                            formEl = el;
                            // `invalid` does not bubble: listen in the capture phase
                            el.addEventListener('invalid', onInvalid, true);
                            queueMicrotask(() => {
                              applyValues(el, values);
                              readQuantity();
                            });
                          }}
                          class="v-form"
                          onSubmit={onSubmit}
                          onInput={(e) => {
                            clearCoreError(e);
                            remember();
                            recheck();
                          }}
                          onChange={() => {
                            remember();
                            recheck();
                          }}
                          aria-describedby={submission()?.error || localError() ? 'signup-error' : undefined}
                        >
                          <div class="field">
                            <label for="signup-name">{t('signup.name')}</label>
                            <input
                              id="signup-name"
                              name="display_name"
                              type="text"
                              autocomplete="name"
                              required
                              maxlength={190}
                              aria-invalid={coreErrors().display_name ? 'true' : undefined}
                              aria-describedby={coreErrors().display_name ? 'signup-name-error' : undefined}
                            />
                            <CoreFieldError id="signup-name-error" message={coreErrors().display_name} />
                          </div>
                          <div class="field">
                            <label for="signup-email">{t('signup.email')}</label>
                            <input
                              id="signup-email"
                              name="email"
                              type="email"
                              inputmode="email"
                              autocomplete="email"
                              required
                              maxlength={254}
                              aria-invalid={coreErrors().email ? 'true' : undefined}
                              aria-describedby={coreErrors().email ? 'signup-email-error' : undefined}
                            />
                            <CoreFieldError id="signup-email-error" message={coreErrors().email} />
                          </div>
                          {/* svc_rsvp_form_fields: after the email, before the quantity; the callback escapes it */}
                          <Show when={injected().before}>
                            <div class="v-extra" innerHTML={injected().before} />
                          </Show>
                          <For each={ownFields()}>{(field) => <CustomFieldInput field={field} error={fieldErrors()[field.key]} />}</For>
                          <Show when={injected().after}>
                            <div class="v-extra" innerHTML={injected().after} />
                          </Show>
                          {/* a limit of one seat per sign-up leaves nothing to choose: no seat count is asked (one is sent) */}
                          <Show when={!sellsCategories() && ev().maxPerSignup > 1}>
                            <div class="field">
                              <label for="signup-quantity">{t('signup.seats')}</label>
                              <input
                                id="signup-quantity"
                                name="quantity"
                                type="number"
                                inputmode="numeric"
                                min="1"
                                max={maxSeats(ev())}
                                value="1"
                                required
                                aria-invalid={coreErrors().quantity ? 'true' : undefined}
                                aria-describedby={[
                                  'signup-quantity-hint',
                                  overflowing() ? 'signup-quantity-waitlist' : '',
                                  coreErrors().quantity ? 'signup-quantity-error' : '',
                                ]
                                  .filter(Boolean)
                                  .join(' ')}
                              />
                              <p id="signup-quantity-hint" class="v-hint">
                                {ev().placesLeft !== null && ev().placesLeft! > 0
                                  ? t('signup.seatsHintPlaces', { max: maxSeats(ev()), places: ev().placesLeft })
                                  : t('signup.seatsHint', { max: maxSeats(ev()) })}
                              </p>
                              <Show when={overflowing()}>
                                <p id="signup-quantity-waitlist" class="v-notice v-seats-warning" role="status">
                                  {t('signup.overflow', { places: ev().placesLeft, seats: quantityTyped() })}
                                </p>
                              </Show>
                              <CoreFieldError id="signup-quantity-error" message={coreErrors().quantity} />
                            </div>
                          </Show>
                          <Show when={sellsCategories() && shownOffer()}>
                            {(o) => (
                              <>
                                <TicketPicker
                                  categories={o().categories}
                                  currency={o().currency}
                                  maxPerSignup={ev().maxPerSignup}
                                  waitlist={ev().waitlist}
                                  appliedCode={o().voucher?.code ?? null}
                                  codeError={codeError() ?? coreErrors().voucher}
                                  applying={applyingCode()}
                                  onApply={() => void applyCode()}
                                  onRemoveCode={removeCode}
                                />
                              </>
                            )}
                          </Show>
                          <Show when={priced() && shownOffer()}>
                            {(o) => (
                              <PriceSummary
                                priced={priced()!}
                                currency={o().currency}
                                onlinePayment={o().onlinePayment}
                                holdHours={o().holdHours}
                                voucherCode={o().voucher?.code ?? null}
                                categoryNames={categoryNames()}
                                busy={submitting()}
                              />
                            )}
                          </Show>
                          <div class="v-hp" aria-hidden="true">
                            <label for="signup-hp">{t('signup.honeypot')}</label>
                            <input id="signup-hp" name={HONEYPOT_FIELD} type="text" tabindex="-1" autocomplete="off" />
                          </div>
                          <Show when={!online()}>
                            <p class="v-hint">{t('signup.offlineHint')}</p>
                          </Show>
                          <Show when={!summaryHasButton()}>
                            <button type="submit" class="button" aria-disabled={submitting()}>
                              {submitLabel()}
                            </button>
                          </Show>
                          <Show when={localError()}>
                            {(message) => <SubmissionProblem id="signup-error" ref={(el) => (resultEl = el)} error={{ message: message() }} />}
                          </Show>
                          <Show when={!localError() && state() === 'failed' && submission()?.error}>
                            {(error) => <SubmissionProblem id="signup-error" ref={(el) => (resultEl = el)} error={error()} fieldIds={CORE_FIELD_IDS} />}
                          </Show>
                        </form>
                      </Show>
                    </Show>
                  </Show>
                </section>
              </Show>
            </div>
          )}
        </Show>
      </Show>
    </Page>
  );
}

/** A message's `<b>` chunks, emphasised. */
const strong = (chunks: JSX.Element[]): JSX.Element => <strong>{chunks}</strong>;

/** The plain-words reason under one of the sign-up's own inputs (named by its aria-describedby). */
function CoreFieldError(props: { id: string; message: string | undefined }): JSX.Element {
  return (
    <Show when={props.message}>
      <p id={props.id} class="form-error">
        {props.message}
      </p>
    </Show>
  );
}

/** One of the event's questions, escaped by Solid; `error` marks it invalid with its reason. */
function CustomFieldInput(props: { field: CustomFieldDefinition; error: string | undefined }): JSX.Element {
  const id = `signup-cf-${props.field.key}`;
  const errorId = `${id}-error`;
  const name = customFieldInputName(props.field.key);
  const invalid = () => (props.error ? 'true' : undefined);
  const describedBy = () => (props.error ? errorId : undefined);
  const label = (
    <label for={id}>
      {props.field.label}
      <Show when={props.field.required}>
        <span class="muted"> {t('signup.required')}</span>
      </Show>
    </label>
  );
  const problem = (
    <Show when={props.error}>
      <p id={errorId} class="form-error">
        {props.error}
      </p>
    </Show>
  );
  if (props.field.type === 'checkbox') {
    return (
      <div class="field">
        <div style={{ display: 'flex', gap: '0.75rem', 'align-items': 'center' }}>
          <input
            id={id}
            name={name}
            type="checkbox"
            value="yes"
            required={props.field.required}
            aria-invalid={invalid()}
            aria-describedby={describedBy()}
            style={{ width: '1.5rem', height: '1.5rem', 'min-height': '1.5rem', margin: 0, 'flex-shrink': 0 }}
          />
          {label}
        </div>
        {problem}
      </div>
    );
  }
  if (props.field.type === 'select') {
    return (
      <div class="field">
        {label}
        <select id={id} name={name} required={props.field.required} aria-invalid={invalid()} aria-describedby={describedBy()}>
          <option value="">{t('signup.choose')}</option>
          <For each={props.field.options ?? []}>{(option) => <option value={option}>{option}</option>}</For>
        </select>
        {problem}
      </div>
    );
  }
  if (props.field.type === 'textarea') {
    return (
      <div class="field">
        {label}
        <textarea
          id={id}
          name={name}
          rows={3}
          required={props.field.required}
          maxLength={props.field.maxLength}
          aria-invalid={invalid()}
          aria-describedby={describedBy()}
        />
        {problem}
      </div>
    );
  }
  // numbers are typed as text: the shared check reads them the same way on every phone and locale
  const typed = {
    text: { type: 'text', inputMode: undefined, autocomplete: undefined },
    // someone else's address as often as the visitor's own: no autofill
    email: { type: 'email', inputMode: 'email', autocomplete: 'off' },
    number: { type: 'text', inputMode: 'decimal', autocomplete: 'off' },
  } as const;
  const kind = typed[props.field.type];
  return (
    <div class="field">
      {label}
      <input
        id={id}
        name={name}
        type={kind.type}
        inputmode={kind.inputMode}
        autocomplete={kind.autocomplete}
        required={props.field.required}
        maxLength={props.field.maxLength}
        aria-invalid={invalid()}
        aria-describedby={describedBy()}
      />
      {problem}
    </div>
  );
}
