/**
 * `/events/submit` (extended edition, docs/api.md#event-submission): a visitor proposes an event.
 * The form token comes from `GET /events/submissions/form` when the page opens; the post waits
 * until it is old enough (the server's minimum fill time) and carries the public-form nonce, an
 * empty honeypot and the times converted from the chosen time zone to UTC. The server's refusals
 * are shown at the field they name. In the free edition the form route answers 404 and the page
 * says proposals are not taken here. Proposals need a connection: nothing is queued offline.
 */
import { createEffect, createSignal, Match, on, onMount, Show, Switch, type JSX } from 'solid-js';
import { Page } from '../../ui/page';
import { online } from '../../pwa';
import { A } from '../../router';
import { ApiError, errorMessage, NetworkError } from '../../ui/errors';
import { call, rpc } from '../../ui/trpc';
import { plainFieldMessage, revealResult } from '../../ui/forms';
import { SUBMISSION_LIMITS, wallTimeToUtc, type SubmissionReceipt } from '../../../shared/submissions';
import { toUtcString } from '../../../shared/time';
import { MAX_EMAIL_LENGTH } from '../../../shared/attendees';
import { HONEYPOT_FIELD } from '../form-fields';
import { fetchNonce, prefetchNonce, storedNonce } from '../nonce';
import { dateTimeInZone, detectTimeZone } from '../time';
import { TimeZonePicker } from '../../ui/time-zone-picker';
import { t, tx } from '../../i18n/i18n';
import '../../styles/visitor.css';

/** docs/api.md#errors minimum fill time, plus a margin for the request's way to the server. */
const MIN_FILL_MS = 3_000 + 400;

type FieldKey = 'title' | 'description' | 'start' | 'end' | 'timezone' | 'venue' | 'name' | 'email';
type FieldErrors = Partial<Record<FieldKey, string>>;

/** The server's field names (data.params) → this form's fields. */
const FIELD_OF_PARAM: Record<string, FieldKey> = {
  title: 'title',
  description: 'description',
  startsUtc: 'start',
  endsUtc: 'end',
  timezone: 'timezone',
  venue: 'venue',
  submitterName: 'name',
  submitterEmail: 'email',
};
/** The inputs' names → this form's fields (a field's message goes once it is changed). */
const FIELD_OF_INPUT: Record<string, FieldKey> = { ...FIELD_OF_PARAM, start: 'start', end: 'end' };
/** Field order, for moving focus to the first field with a problem. */
const FIELD_ORDER: FieldKey[] = ['title', 'description', 'start', 'end', 'timezone', 'venue', 'name', 'email'];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type FormState = 'loading' | 'unavailable' | 'failed' | 'ready';

export default function SubmitEventPage(): JSX.Element {
  const detected = detectTimeZone();
  const [state, setState] = createSignal<FormState>('loading');
  const [token, setToken] = createSignal<{ formToken: string; at: number } | null>(null);
  const [loadError, setLoadError] = createSignal('');
  const [errors, setErrors] = createSignal<FieldErrors>({});
  const [problem, setProblem] = createSignal<string | null>(null);
  const [sending, setSending] = createSignal(false);
  const [receipt, setReceipt] = createSignal<{ receipt: SubmissionReceipt; email: string } | null>(null);
  const [tz, setTz] = createSignal(detected);
  let formEl: HTMLFormElement | undefined;
  let resultHeading: HTMLHeadingElement | undefined;

  /** Fetches a form token; the form stays on screen (with what was typed) when it only needs a new one. */
  async function loadForm(): Promise<void> {
    if (state() !== 'ready') setState('loading');
    try {
      const form = await call(rpc().submissions.form.query());
      setToken({ formToken: form.formToken, at: Date.now() });
      setState('ready');
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setState('unavailable');
      else if (state() === 'ready') setToken(null);
      else {
        setLoadError(err instanceof NetworkError ? t('submit.needsConnection') : errorMessage(err));
        setState('failed');
      }
    }
  }

  onMount(() => {
    void prefetchNonce();
    void loadForm();
  });

  const value = (name: string) => String(new FormData(formEl).get(name) ?? '');
  const invalid = (key: FieldKey) => (errors()[key] ? 'true' : undefined);
  const describedBy = (key: FieldKey, hint?: string) => [hint, errors()[key] ? `submit-${key}-error` : ''].filter(Boolean).join(' ') || undefined;
  const FieldError = (props: { key: FieldKey }) => (
    <Show when={errors()[props.key]}>
      {(message) => (
        <p id={`submit-${props.key}-error`} class="form-error">
          {message()}
        </p>
      )}
    </Show>
  );

  function focusFirstError(found: FieldErrors): void {
    const first = FIELD_ORDER.find((key) => found[key]);
    if (first) formEl?.querySelector<HTMLElement>(`#submit-${first}`)?.focus();
  }

  /** What the visitor typed, checked here first (the server checks it again). */
  function readForm(): { body: Record<string, string | null>; found: FieldErrors } {
    const found: FieldErrors = {};
    const zone = value('timezone') || 'UTC';
    const title = value('title').trim();
    const name = value('submitterName').trim();
    const email = value('submitterEmail').trim();
    const startText = value('start');
    const endText = value('end');
    const startsUtc = wallTimeToUtc(startText, zone);
    const endsUtc = endText ? wallTimeToUtc(endText, zone) : null;
    if (!title) found.title = t('submit.errTitle');
    if (!startText) found.start = t('submit.errStart');
    else if (!startsUtc) found.start = t('submit.errDateTime');
    else if (startsUtc <= toUtcString(Date.now())) found.start = t('submit.errFuture');
    if (endText && !endsUtc) found.end = t('submit.errEnd');
    else if (startsUtc && endsUtc && endsUtc < startsUtc) found.end = t('form.endAfterStart');
    if (!name) found.name = t('submit.errName');
    if (!email) found.email = t('submit.errEmail');
    else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) found.email = plainFieldMessage('submitterEmail', '');
    return {
      found,
      body: {
        title,
        description: value('description').trim(),
        startsUtc,
        endsUtc,
        timezone: zone,
        venue: value('venue').trim(),
        submitterName: name,
        submitterEmail: email,
        [HONEYPOT_FIELD]: value(HONEYPOT_FIELD),
      },
    };
  }

  async function send(body: Record<string, string | null>, formToken: string, freshNonce = false) {
    const nonce = (!freshNonce && (await storedNonce().catch(() => null))) || (await fetchNonce());
    const input = {
      title: body.title ?? '',
      description: body.description ?? '',
      startsUtc: body.startsUtc ?? '',
      endsUtc: body.endsUtc,
      timezone: body.timezone ?? 'UTC',
      venue: body.venue ?? '',
      submitterName: body.submitterName ?? '',
      submitterEmail: body.submitterEmail ?? '',
      svc_ts: formToken,
      svc_hp: body[HONEYPOT_FIELD] ?? '',
    };
    return call(rpc().submissions.submit.mutate(input, { context: { nonce: nonce.nonce } }));
  }

  const onSubmit = async (e: SubmitEvent) => {
    e.preventDefault();
    if (sending() || !formEl) return;
    setProblem(null);
    const { body, found } = readForm();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setProblem(t('submit.checkMarked'));
      focusFirstError(found);
      return;
    }
    setSending(true);
    // no token yet (the page opened offline, or a new one failed): ask again now
    if (!token()) await loadForm();
    const current = token();
    if (!current) {
      setSending(false);
      setProblem(t('submit.unreachable'));
      return;
    }
    try {
      // the server refuses a form sent less than 3 s after it was handed out
      const wait = current.at + MIN_FILL_MS - Date.now();
      if (wait > 0) await sleep(wait);
      let answer: SubmissionReceipt;
      try {
        answer = await send(body, current.formToken);
      } catch (err) {
        // a stored nonce the server no longer takes: fetch a fresh one and send once more
        if (!(err instanceof ApiError && err.code === 'svc_invalid_nonce')) throw err;
        answer = await send(body, current.formToken, true);
      }
      setReceipt({ receipt: answer, email: body.submitterEmail ?? '' });
      revealResult(() => resultHeading);
    } catch (err) {
      showRefusal(err);
    } finally {
      setSending(false);
    }
  };

  function showRefusal(err: unknown): void {
    if (err instanceof ApiError && err.code === 'svc_invalid_param') {
      const found: FieldErrors = {};
      for (const [param, reason] of Object.entries(err.data?.params ?? {})) {
        const key = FIELD_OF_PARAM[param];
        if (key) found[key] ??= plainFieldMessage(param, String(reason));
      }
      setErrors(found);
      setProblem(Object.keys(found).length > 0 ? t('submit.checkMarked') : err.message);
      focusFirstError(found);
      return;
    }
    if (err instanceof ApiError && err.code === 'svc_rate_limited') {
      setProblem(rateLimitedMessage(err.data?.retryAfter));
      return;
    }
    if (err instanceof ApiError && err.status === 404) {
      setState('unavailable');
      return;
    }
    if (err instanceof ApiError && err.code === 'svc_spam_suspected') {
      // a new form token, so the next try starts a fresh fill time
      void loadForm();
      setProblem(t('submit.spam'));
      return;
    }
    setProblem(err instanceof NetworkError ? t('submit.unreachable') : errorMessage(err));
  }

  // A refusal that names no field (throttled, unreachable…): bring it into view; a named field takes the focus itself.
  createEffect(
    on(problem, (message) => {
      if (message && Object.keys(errors()).length === 0) revealResult(() => document.getElementById('submit-problem'));
    }),
  );

  const onEdit = (e: Event) => {
    const key = FIELD_OF_INPUT[(e.target as HTMLInputElement | null)?.name ?? ''];
    if (key && errors()[key]) setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const again = () => {
    setReceipt(null);
    setErrors({});
    setProblem(null);
    void loadForm();
  };

  return (
    <Page title={t('submit.title')}>
      <p>
        <A href="/events">{t('event.allEvents')}</A>
      </p>
      <Switch>
        <Match when={receipt()}>
          {(done) => (
            <div class="v-result" role="status">
              <h2 ref={resultHeading} tabindex="-1">
                {t('submit.thanks')}
              </h2>
              <p>
                {tx('submit.received', {
                  title: done().receipt.title,
                  when: dateTimeInZone(done().receipt.startsUtc, done().receipt.timezone),
                  email: done().email,
                  b: (chunks) => <strong>{chunks}</strong>,
                })}
              </p>
              <button type="button" class="button button-quiet" onClick={again}>
                {t('submit.another')}
              </button>
            </div>
          )}
        </Match>
        <Match when={state() === 'loading'}>
          <p class="status-text" role="status">
            {t('signup.formLoading')}
          </p>
        </Match>
        <Match when={state() === 'unavailable'}>
          <p class="notice" role="status">
            {t('submit.unavailable')}
          </p>
        </Match>
        <Match when={state() === 'failed'}>
          <div class="notice notice-error" role="alert">
            <p>{loadError()}</p>
            <button type="button" class="button button-quiet" onClick={() => void loadForm()}>
              {t('common.tryAgain')}
            </button>
          </div>
        </Match>
        <Match when={state() === 'ready'}>
          <p>{t('submit.intro')}</p>
          <form
            ref={formEl}
            class="v-form"
            novalidate
            onSubmit={onSubmit}
            onInput={onEdit}
            onChange={onEdit}
            aria-describedby={problem() ? 'submit-problem' : undefined}
          >
            <div class="field">
              <label for="submit-title">{t('submit.eventTitle')}</label>
              <input
                id="submit-title"
                name="title"
                type="text"
                required
                maxlength={SUBMISSION_LIMITS.title}
                aria-invalid={invalid('title')}
                aria-describedby={describedBy('title')}
              />
              <FieldError key="title" />
            </div>
            <div class="field">
              <label for="submit-description">{t('submit.description')}</label>
              <textarea
                id="submit-description"
                name="description"
                rows={5}
                maxlength={SUBMISSION_LIMITS.description}
                aria-invalid={invalid('description')}
                aria-describedby={describedBy('description')}
              />
              <FieldError key="description" />
            </div>
            <div class="field">
              <label for="submit-start">{t('submit.starts')}</label>
              <input
                id="submit-start"
                name="start"
                type="datetime-local"
                required
                aria-invalid={invalid('start')}
                aria-describedby={describedBy('start', 'submit-times-hint')}
              />
              <FieldError key="start" />
            </div>
            <div class="field">
              <label for="submit-end">{t('submit.ends')}</label>
              <input
                id="submit-end"
                name="end"
                type="datetime-local"
                aria-invalid={invalid('end')}
                aria-describedby={describedBy('end', 'submit-times-hint')}
              />
              <FieldError key="end" />
            </div>
            <div class="field">
              <TimeZonePicker
                id="submit-timezone"
                name="timezone"
                label={t('submit.timezone')}
                value={tz()}
                onChange={(zone) => {
                  setTz(zone);
                  if (errors().timezone) setErrors(({ timezone: _gone, ...rest }) => rest);
                }}
                invalid={invalid('timezone') === 'true'}
                describedBy={describedBy('timezone', 'submit-times-hint')}
              />
              <p id="submit-times-hint" class="v-hint">
                {t('submit.timesHint')}
              </p>
              <FieldError key="timezone" />
            </div>
            <div class="field">
              <label for="submit-venue">{t('submit.venue')}</label>
              <input
                id="submit-venue"
                name="venue"
                type="text"
                maxlength={SUBMISSION_LIMITS.venue}
                aria-invalid={invalid('venue')}
                aria-describedby={describedBy('venue')}
              />
              <FieldError key="venue" />
            </div>
            <div class="field">
              <label for="submit-name">{t('submit.name')}</label>
              <input
                id="submit-name"
                name="submitterName"
                type="text"
                autocomplete="name"
                required
                maxlength={SUBMISSION_LIMITS.name}
                aria-invalid={invalid('name')}
                aria-describedby={describedBy('name')}
              />
              <FieldError key="name" />
            </div>
            <div class="field">
              <label for="submit-email">{t('submit.email')}</label>
              <input
                id="submit-email"
                name="submitterEmail"
                type="email"
                inputmode="email"
                autocomplete="email"
                required
                maxlength={MAX_EMAIL_LENGTH}
                aria-invalid={invalid('email')}
                aria-describedby={describedBy('email', 'submit-email-hint')}
              />
              <p id="submit-email-hint" class="v-hint">
                {t('submit.emailHint')}
              </p>
              <FieldError key="email" />
            </div>
            <div class="v-hp" aria-hidden="true">
              <label for="submit-hp">{t('signup.honeypot')}</label>
              <input id="submit-hp" name={HONEYPOT_FIELD} type="text" tabindex="-1" autocomplete="off" />
            </div>
            <Show when={!online()}>
              <p class="v-hint">{t('submit.offline')}</p>
            </Show>
            <Show when={problem()}>
              {(message) => (
                <p id="submit-problem" class="form-error" role="alert" tabindex="-1">
                  {message()}
                </p>
              )}
            </Show>
            <button type="submit" class="button" aria-disabled={sending()}>
              {sending() ? t('submit.sending') : t('submit.send')}
            </button>
          </form>
        </Match>
      </Switch>
    </Page>
  );
}

/** "…try again in about 7 minutes", from a Retry-After in seconds. */
function rateLimitedMessage(retryAfter: unknown): string {
  const seconds = Number(retryAfter);
  if (!Number.isFinite(seconds) || seconds <= 0) return t('submit.rateLimited', { unit: 'unknown', count: 0 });
  if (seconds < 90) return t('submit.rateLimited', { unit: 'seconds', count: Math.max(1, Math.round(seconds)) });
  return t('submit.rateLimited', { unit: 'minutes', count: Math.round(seconds / 60) });
}
