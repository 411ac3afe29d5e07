import { CoverImagePicker } from '../components/cover-image-picker';
import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { createStore, produce } from 'solid-js/store';
import { AdminFrame } from '../components/admin-frame';
import { ChatWebhookField } from '../components/chat-webhook-field';
import { EventLanguageField } from '../components/language-field';
import { TicketEditors } from '../components/ticket-editors';
import type { Locale } from '../../../shared/i18n/locales';
import { CheckboxField, SaveButtons, SelectField, TextArea, TextField } from '../components/fields';
import { createEvent, getEvent, getSettings, updateEvent, type EventDto } from '../data';
import { edition, loadPaymentStatus } from '../edition';
import { adminErrorMessage } from '../errors';
import {
  ANSWER_MAX_LENGTH,
  CUSTOM_FIELD_TYPES,
  suggestFieldKey,
  TEXT_LIKE_TYPES,
  type CustomFieldDefinition,
  type CustomFieldType,
} from '../../../shared/custom-fields';
import { ZCustomFieldDefinition } from '../../../shared/custom-fields-schema';
import { DEFAULT_REMINDER_MINUTES, MAX_REMINDER_MINUTES, type WaitlistPromotion } from '../../../shared/events';
import { ApiError } from '../../ui/errors';
import {
  centsToText,
  createSaveAction,
  localInputToUtc,
  textToCents,
  utcToLocalInput,
  viewerTimeZone,
  PUBLISH_STATUS_OPTIONS,
  translatedOptions,
} from '../forms';
import { errorMessage } from '../../ui/errors';
import { A, navigate, type RouteProps } from '../../router';
import { submitWith } from '../../ui/forms';
import { intlLocale, t } from '../../i18n/i18n';
import { TimeZonePicker } from '../../ui/time-zone-picker';

/** What happens to a freed seat (docs/decisions/045-waitlist-promotion.md); labels read when drawn, in the reader's language. */
const WAITLIST_PROMOTION_OPTIONS = translatedOptions<WaitlistPromotion>([
  ['manual', 'admin.eventForm.waitlistPromotion.manual'],
  ['auto', 'admin.eventForm.waitlistPromotion.auto'],
]);
/** `/admin/events/new` and `/admin/events/:id/edit`. */
export default function AdminEventFormPage(props: RouteProps): JSX.Element {
  const id = () => (props.params.id ? Number(props.params.id) : null);
  return (
    <AdminFrame title={id() ? t('admin.eventForm.titleEdit') : t('admin.eventForm.titleNew')} area="manage-events">
      {() => <EventLoader id={id()} />}
    </AdminFrame>
  );
}

function EventLoader(props: { id: number | null }): JSX.Element {
  const [event, { refetch }] = createResource(
    () => props.id ?? 0,
    (id) => (id ? getEvent(id) : Promise.resolve(null)),
  );
  const [saved, setSaved] = createSignal<EventDto | null>(null);
  return (
    <Show
      when={event.state === 'ready'}
      fallback={
        <Show
          when={event.error}
          fallback={
            <p class="status-text" aria-busy="true">
              {t('admin.eventForm.loading')}
            </p>
          }
        >
          <div class="notice notice-error" role="alert">
            <p>{t('admin.eventForm.loadFailed', { reason: errorMessage(event.error) })}</p>
            <button type="button" class="button" onClick={() => void refetch()}>
              {t('common.tryAgain')}
            </button>
          </div>
        </Show>
      }
    >
      <EventForm event={event() ?? null} onSaved={setSaved} />
      {/* beside the form, not in it: the image is saved on its own */}
      <Show when={event()}>{(ev) => <CoverImagePicker owner="event" id={ev().id} image={ev().image} />}</Show>
      {/* below the event's form, not in it: each editor is a form of its own; they read the time zone as last saved */}
      <Show when={props.id ? (saved() ?? event()) : null}>{(ev) => <TicketEditors event={ev()} />}</Show>
    </Show>
  );
}

function EventForm(props: { event: EventDto | null; onSaved: (saved: EventDto) => void }): JSX.Element {
  const e = props.event;
  const [title, setTitle] = createSignal(e?.title ?? '');
  const [description, setDescription] = createSignal(e?.description ?? '');
  const [starts, setStarts] = createSignal(utcToLocalInput(e?.startsUtc));
  const [ends, setEnds] = createSignal(utcToLocalInput(e?.endsUtc));
  const [timezone, setTimezone] = createSignal(e?.timezone ?? viewerTimeZone());
  // a new event starts in the organization's zone once Settings chose one (docs/decisions/048-first-run.md)
  let zoneTouched = false;
  const chooseZone = (zone: string) => {
    zoneTouched = true;
    setTimezone(zone);
  };
  if (!e) {
    getSettings().then(
      (s) => {
        if (s.defaultTimeZoneChosen && !zoneTouched) setTimezone(s.defaultTimeZone);
      },
      () => undefined, // offline or refused: the browser's zone stays proposed
    );
  }
  const [language, setLanguage] = createSignal<Locale | ''>(e?.language ?? '');
  const [venue, setVenue] = createSignal(e?.venue ?? '');
  const [venueAddress, setVenueAddress] = createSignal(e?.venueAddress ?? '');
  const [venueLat, setVenueLat] = createSignal(e?.venueLat == null ? '' : String(e.venueLat));
  const [venueLon, setVenueLon] = createSignal(e?.venueLon == null ? '' : String(e.venueLon));
  const [capacity, setCapacity] = createSignal(e?.capacity == null ? '' : String(e.capacity));
  const [maxPerSignup, setMaxPerSignup] = createSignal(String(e?.maxPerSignup ?? 10));
  const [opens, setOpens] = createSignal(utcToLocalInput(e?.signupOpensUtc));
  const [closes, setCloses] = createSignal(utcToLocalInput(e?.signupClosesUtc));
  const [waitlist, setWaitlist] = createSignal(e?.waitlist ?? true);
  const [promotion, setPromotion] = createSignal<WaitlistPromotion>(e?.waitlistPromotion ?? 'manual');
  // a new event reminds a day before, as the server's default does (docs/api.md#event-reminders)
  const storedReminder = e ? e.reminderMinutes : DEFAULT_REMINDER_MINUTES;
  const [reminderOn, setReminderOn] = createSignal(storedReminder !== null);
  const [reminderHours, setReminderHours] = createSignal(String((storedReminder ?? DEFAULT_REMINDER_MINUTES) / 60));
  const [status, setStatus] = createSignal<'draft' | 'published'>(e?.status ?? 'draft');
  const [price, setPrice] = createSignal(centsToText(e?.priceCents ?? 0));
  const [chatWebhookUrl, setChatWebhookUrl] = createSignal(e?.chatWebhookUrl ?? '');
  const saving = createSaveAction();
  // the extended edition's sections; the free edition neither shows nor sends them
  void createResource(loadPaymentStatus);
  const extended = () => edition() === 'extended';
  const questions = createQuestionsEditor(e?.fields ?? []);

  const build = () => {
    const startsUtc = localInputToUtc(starts());
    if (!title().trim()) throw new Error(t('admin.eventForm.error.title'));
    if (!startsUtc) throw new Error(t('admin.eventForm.error.starts'));
    const priceCents = textToCents(price());
    if (priceCents === null) throw new Error(t('admin.eventForm.error.price', { example: formatDecimal(12.5) }));
    const cap = capacity().trim();
    if (cap !== '' && !/^\d+$/.test(cap)) throw new Error(t('admin.eventForm.error.capacity'));
    const reminderMinutes = reminderOn() ? Math.round(Number(reminderHours()) * 60) : null;
    if (reminderMinutes !== null && !(reminderMinutes >= 1 && reminderMinutes <= MAX_REMINDER_MINUTES)) {
      throw new Error(t('admin.eventForm.error.reminder', { max: MAX_REMINDER_MINUTES / 60 }));
    }
    const point = coordinates(venueLat(), venueLon());
    if (point === undefined) throw new Error(t('admin.eventForm.error.coordinates'));
    const fields = extended() ? questions.definitions() : undefined;
    if (fields === null) throw new Error(t('admin.eventForm.error.questions'));
    // the extended edition's keys, sent only where its sections are shown (the free edition keeps what is stored)
    const extendedKeys = fields ? { fields, chatWebhookUrl: chatWebhookUrl().trim() } : {};
    return {
      title: title().trim(),
      description: description(),
      startsUtc,
      endsUtc: localInputToUtc(ends()),
      timezone: timezone(),
      language: language() || null,
      venue: venue(),
      venueAddress: venueAddress().trim(),
      venueLat: point?.lat ?? null,
      venueLon: point?.lon ?? null,
      capacity: cap === '' ? null : Number(cap),
      maxPerSignup: Number(maxPerSignup()) || 1,
      signupOpensUtc: localInputToUtc(opens()),
      signupClosesUtc: localInputToUtc(closes()),
      waitlist: waitlist(),
      waitlistPromotion: promotion(),
      status: status(),
      priceCents,
      reminderMinutes,
      ...extendedKeys,
    };
  };

  const save = async (publish = false) => {
    if (saving.busy()) return;
    let body: ReturnType<typeof build>;
    try {
      body = build();
      if (publish) body.status = 'published';
    } catch (err) {
      return saving.fail((err as Error).message);
    }
    await saving.run(
      async () => {
        const saved = e ? await updateEvent(e.id, body) : await createEvent(body);
        setStatus(saved.status);
        props.onSaved(saved);
        questions.markSaved();
        if (!e) navigate(`/admin/events/${saved.id}`);
      },
      (err) => {
        if (err instanceof ApiError) questions.showServerErrors(err.data?.params);
        return adminErrorMessage(err);
      },
    );
  };

  return (
    <form class="form form-wide" onSubmit={submitWith(save)}>
      <TextField id="event-title" label={t('admin.eventForm.field.title')} value={title()} onInput={setTitle} required maxLength={190} />
      <TextArea id="event-description" label={t('admin.eventForm.field.description')} value={description()} onInput={setDescription} />
      <div class="field-row">
        <TextField
          id="event-starts"
          label={t('admin.eventForm.field.starts')}
          type="datetime-local"
          value={starts()}
          onInput={setStarts}
          required
          hint={t('admin.eventForm.field.startsHint')}
        />
        <TextField id="event-ends" label={t('admin.eventForm.field.ends')} type="datetime-local" value={ends()} onInput={setEnds} />
      </div>
      <div class="field">
        <TimeZonePicker
          id="event-timezone"
          label={t('admin.eventForm.field.timezone')}
          value={timezone()}
          onChange={chooseZone}
          hint={t('admin.eventForm.field.timezoneHint')}
        />
      </div>
      <EventLanguageField value={language()} onChange={setLanguage} />
      <TextField id="event-venue" label={t('admin.eventForm.field.venue')} value={venue()} onInput={setVenue} />
      <TextField id="event-venue-address" label={t('admin.eventForm.field.venueAddress')} value={venueAddress()} onInput={setVenueAddress} maxLength={300} />
      <div class="field-row">
        <TextField
          id="event-venue-lat"
          label={t('admin.eventForm.field.venueLat')}
          inputMode="decimal"
          value={venueLat()}
          onInput={setVenueLat}
          hint={t('admin.eventForm.field.coordinatesHint', { example: '48.8584' })}
        />
        <TextField id="event-venue-lon" label={t('admin.eventForm.field.venueLon')} inputMode="decimal" value={venueLon()} onInput={setVenueLon} />
      </div>
      <div class="field-row">
        <TextField
          id="event-capacity"
          label={t('admin.eventForm.field.capacity')}
          inputMode="numeric"
          value={capacity()}
          onInput={setCapacity}
          hint={t('admin.eventForm.field.capacityHint')}
        />
        <TextField
          id="event-max"
          label={t('admin.eventForm.field.maxPerSignup')}
          type="number"
          min="1"
          max="1000"
          value={maxPerSignup()}
          onInput={setMaxPerSignup}
        />
      </div>
      <CheckboxField id="event-waitlist" label={t('admin.eventForm.field.waitlist')} checked={waitlist()} onChange={setWaitlist} />
      <Show when={waitlist()}>
        <SelectField
          id="event-waitlist-promotion"
          label={t('admin.eventForm.field.waitlistPromotion')}
          value={promotion()}
          options={WAITLIST_PROMOTION_OPTIONS}
          onChange={setPromotion}
          hint={t('admin.eventForm.field.waitlistPromotionHint')}
        />
      </Show>
      <div class="field-row">
        <TextField id="event-opens" label={t('admin.eventForm.field.opens')} type="datetime-local" value={opens()} onInput={setOpens} />
        <TextField id="event-closes" label={t('admin.eventForm.field.closes')} type="datetime-local" value={closes()} onInput={setCloses} />
      </div>
      <TextField
        id="event-price"
        label={t('admin.eventForm.field.price')}
        inputMode="decimal"
        value={price()}
        onInput={setPrice}
        hint={t('admin.eventForm.field.priceHint')}
      />
      <CheckboxField id="event-reminder" label={t('admin.eventForm.field.reminder')} checked={reminderOn()} onChange={setReminderOn} />
      <Show when={reminderOn()}>
        <TextField
          id="event-reminder-hours"
          label={t('admin.eventForm.field.reminderHours')}
          type="number"
          min="0.1"
          max={String(MAX_REMINDER_MINUTES / 60)}
          step="any"
          value={reminderHours()}
          onInput={setReminderHours}
          hint={t('admin.eventForm.field.reminderHint', { max: MAX_REMINDER_MINUTES / 60 })}
        />
      </Show>
      <SelectField id="event-status" label={t('admin.eventForm.field.status')} value={status()} options={PUBLISH_STATUS_OPTIONS} onChange={setStatus} />
      <Show when={extended()}>
        <QuestionsEditor editor={questions} />
        <fieldset class="form" style={{ 'max-width': 'none' }}>
          <legend>{t('admin.eventForm.integrations')}</legend>
          <ChatWebhookField value={chatWebhookUrl()} onChange={setChatWebhookUrl} eventId={e?.id} />
        </fieldset>
      </Show>
      <SaveButtons action={saving} label={e ? t('admin.eventForm.save') : t('admin.eventForm.create')}>
        <Show when={status() === 'draft'}>
          <button type="button" class="button button-quiet" onClick={() => void save(true)}>
            {t('admin.eventForm.saveAndPublish')}
          </button>
        </Show>
        <Show when={e}>{(ev) => <A href={`/admin/events/${ev().id}`}>{t('admin.eventForm.backToDashboard')}</A>}</Show>
      </SaveButtons>
    </form>
  );
}

/** One question as the editor holds it: inputs as typed, options one per line. */
interface QuestionRow {
  uid: number;
  key: string;
  /** Once the admin types a key (or the question was saved), the label stops suggesting one. */
  keyTouched: boolean;
  label: string;
  type: CustomFieldType;
  required: boolean;
  options: string;
  maxLength: string;
  errors: Partial<Record<'key' | 'label' | 'type' | 'options' | 'maxLength', string>>;
}

/** A question type's name, read when drawn (in the reader's language). */
function typeLabel(type: CustomFieldType): string {
  switch (type) {
    case 'text':
      return t('admin.eventForm.type.text');
    case 'textarea':
      return t('admin.eventForm.type.textarea');
    case 'email':
      return t('admin.eventForm.type.email');
    case 'number':
      return t('admin.eventForm.type.number');
    case 'select':
      return t('admin.eventForm.type.select');
    case 'checkbox':
      return t('admin.eventForm.type.checkbox');
  }
}
const typeOptions = () => CUSTOM_FIELD_TYPES.map((value) => ({ value, label: typeLabel(value) }));

/** The plain words for a question's field the schema refused (others keep the schema's message). */
function friendly(field: keyof QuestionRow['errors']): string | undefined {
  if (field === 'label') return t('admin.eventForm.q.labelError', { max: 200 });
  if (field === 'maxLength') return t('admin.eventForm.q.maxLengthError', { max: ANSWER_MAX_LENGTH });
  return undefined;
}

/** A decimal the reader's way (the price example: "12.50" / "12,50"). */
function formatDecimal(value: number): string {
  return new Intl.NumberFormat(intlLocale(), { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(value);
}

/** A question named in a sentence: its label in quotes, or its position when it has none yet. */
const questionName = (row: QuestionRow, index: number) =>
  row.label.trim() ? t('admin.eventForm.q.quoted', { label: row.label.trim() }) : t('admin.eventForm.q.numbered', { n: index + 1 });

let nextUid = 1;

function rowOf(field: CustomFieldDefinition): QuestionRow {
  return {
    uid: nextUid++,
    key: field.key,
    keyTouched: true,
    label: field.label,
    type: field.type,
    required: field.required,
    options: (field.options ?? []).join('\n'),
    maxLength: field.maxLength === undefined ? '' : String(field.maxLength),
    errors: {},
  };
}

/** What the API takes for a row: options only for a choice list, a length only for typed text. */
function draftOf(row: QuestionRow): Record<string, unknown> {
  const draft: Record<string, unknown> = { key: row.key.trim(), label: row.label.trim(), type: row.type, required: row.required };
  if (row.type === 'select') {
    draft.options = row.options
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  }
  const max = row.maxLength.trim();
  if (TEXT_LIKE_TYPES.includes(row.type) && max !== '') draft.maxLength = /^\d+$/.test(max) ? Number(max) : NaN;
  return draft;
}

function createQuestionsEditor(initial: readonly CustomFieldDefinition[]) {
  const [rows, setRows] = createStore<QuestionRow[]>(initial.map(rowOf));
  const [announcement, setAnnouncement] = createSignal('');
  const [general, setGeneral] = createSignal<string | null>(null);

  const otherKeys = (uid: number) => rows.filter((r) => r.uid !== uid).map((r) => r.key);
  const indexOf = (uid: number) => rows.findIndex((r) => r.uid === uid);
  const nameOf = questionName;

  return {
    rows,
    announcement,
    general,
    add(): void {
      const uid = nextUid++;
      const key = suggestFieldKey('', otherKeys(uid));
      setRows(rows.length, { uid, key, keyTouched: false, label: '', type: 'text', required: false, options: '', maxLength: '', errors: {} });
      setAnnouncement(t('admin.eventForm.q.added', { n: rows.length }));
      queueMicrotask(() => document.getElementById(`cf-${uid}-label`)?.focus());
    },
    remove(uid: number): void {
      const i = indexOf(uid);
      if (i < 0) return;
      const name = nameOf(rows[i]!, i);
      setRows((list) => list.filter((r) => r.uid !== uid));
      setAnnouncement(t('admin.eventForm.q.removed', { name }));
      queueMicrotask(() => document.getElementById('cf-add')?.focus());
    },
    move(uid: number, by: -1 | 1): void {
      const i = indexOf(uid);
      const j = i + by;
      if (i < 0 || j < 0 || j >= rows.length) return;
      setRows(
        produce((list) => {
          [list[i], list[j]] = [list[j]!, list[i]!];
        }),
      );
      setAnnouncement(t('admin.eventForm.q.moved', { name: nameOf(rows[j]!, j), position: j + 1, count: rows.length }));
      // the row's node moved: keep the focus on its button, or the other one at either end
      const direction = by < 0 ? 'up' : 'down';
      const atEnd = by < 0 ? j === 0 : j === rows.length - 1;
      queueMicrotask(() => document.getElementById(`cf-${uid}-${atEnd ? (direction === 'up' ? 'down' : 'up') : direction}`)?.focus());
    },
    setLabel(uid: number, label: string): void {
      const i = indexOf(uid);
      if (i < 0) return;
      setRows(i, 'label', label);
      if (!rows[i]!.keyTouched) setRows(i, 'key', suggestFieldKey(label, otherKeys(uid)));
    },
    /** Saved keys hold answers from now on: a label edit no longer renames them. */
    markSaved(): void {
      setRows({}, 'keyTouched', true);
    },
    setKey(uid: number, key: string): void {
      const i = indexOf(uid);
      if (i >= 0) setRows(i, { key, keyTouched: true });
    },
    set<K extends 'type' | 'required' | 'options' | 'maxLength'>(uid: number, field: K, value: QuestionRow[K]): void {
      const i = indexOf(uid);
      if (i >= 0) setRows(i, field, value as never);
    },
    /** The definitions to save, or null when a row is wrong (each error is put at its field). */
    definitions(): CustomFieldDefinition[] | null {
      setGeneral(null);
      const seen = new Map<string, number>();
      const out: CustomFieldDefinition[] = [];
      let ok = true;
      rows.forEach((row, i) => {
        const errors: QuestionRow['errors'] = {};
        const parsed = ZCustomFieldDefinition.safeParse(draftOf(row));
        if (parsed.success) out.push(parsed.data);
        else {
          for (const issue of parsed.error.issues) {
            const field = issue.path[0] as keyof QuestionRow['errors'];
            errors[field] ??= friendly(field) ?? issue.message;
          }
        }
        const key = row.key.trim();
        if (seen.has(key)) errors.key ??= t('admin.eventForm.q.keyTaken', { n: seen.get(key)! + 1 });
        else seen.set(key, i);
        if (Object.keys(errors).length > 0) ok = false;
        setRows(i, 'errors', errors);
      });
      return ok ? out : null;
    },
    /** A refusal from the server (`fields.<i>.<name>`, with or without the tRPC `patch.` prefix) shown at the field. */
    showServerErrors(params: Record<string, unknown> | undefined): void {
      for (const [path, problem] of Object.entries(params ?? {})) {
        const text = typeof problem === 'string' ? problem : t('admin.common.invalid');
        const match = /(?:^|\.)fields\.(\d+)\.(key|label|type|options|maxLength)(?:\.|$)/.exec(path);
        if (match && rows[Number(match[1])]) setRows(Number(match[1]), 'errors', match[2] as keyof QuestionRow['errors'], text);
        else if (/(?:^|\.)fields$/.test(path)) setGeneral(text);
      }
    },
  };
}
type QuestionsEditor = ReturnType<typeof createQuestionsEditor>;

/** The extended edition's sign-up questions: asked on the visitor's form after the email. */
function QuestionsEditor(props: { editor: QuestionsEditor }): JSX.Element {
  const editor = props.editor;
  return (
    <fieldset class="form" style={{ 'max-width': 'none' }} aria-describedby="cf-intro">
      <legend>{t('admin.eventForm.q.legend')}</legend>
      <p id="cf-intro" class="field-hint">
        {t('admin.eventForm.q.intro')}
      </p>
      <Show when={editor.rows.length === 0}>
        <p class="muted">{t('admin.eventForm.q.none')}</p>
      </Show>
      <ol style={{ 'list-style': 'none', padding: 0, margin: 0, display: 'grid', gap: '1rem' }}>
        <For each={editor.rows}>
          {(row, index) => {
            const id = (part: string) => `cf-${row.uid}-${part}`;
            const name = () => questionName(row, index());
            return (
              <li>
                <fieldset class="form" style={{ 'max-width': 'none' }} data-question-key={row.key}>
                  <legend>{t('admin.eventForm.q.legendN', { n: index() + 1 })}</legend>
                  <div class="field-row">
                    <TextField
                      id={id('label')}
                      label={t('admin.eventForm.q.label')}
                      value={row.label}
                      onInput={(v) => editor.setLabel(row.uid, v)}
                      maxLength={200}
                      required
                      error={row.errors.label}
                    />
                    <TextField
                      id={id('key')}
                      label={t('admin.eventForm.q.key')}
                      value={row.key}
                      onInput={(v) => editor.setKey(row.uid, v)}
                      maxLength={40}
                      autocomplete="off"
                      spellcheck={false}
                      hint={t('admin.eventForm.q.keyHint')}
                      error={row.errors.key}
                    />
                  </div>
                  <div class="field-row">
                    <SelectField
                      id={id('type')}
                      label={t('admin.eventForm.q.type')}
                      value={row.type}
                      options={typeOptions()}
                      onChange={(v) => editor.set(row.uid, 'type', v)}
                      error={row.errors.type}
                    />
                    <Show when={TEXT_LIKE_TYPES.includes(row.type)}>
                      <TextField
                        id={id('max')}
                        label={t('admin.eventForm.q.maxLength')}
                        inputMode="numeric"
                        value={row.maxLength}
                        onInput={(v) => editor.set(row.uid, 'maxLength', v)}
                        hint={t('admin.eventForm.q.maxLengthHint', { max: ANSWER_MAX_LENGTH })}
                        error={row.errors.maxLength}
                      />
                    </Show>
                  </div>
                  <Show when={row.type === 'select'}>
                    <TextArea
                      id={id('options')}
                      label={t('admin.eventForm.q.options')}
                      value={row.options}
                      onInput={(v) => editor.set(row.uid, 'options', v)}
                      rows={4}
                      error={row.errors.options}
                    />
                  </Show>
                  <CheckboxField
                    id={id('required')}
                    label={row.type === 'checkbox' ? t('admin.eventForm.q.mustTick') : t('admin.eventForm.q.required')}
                    checked={row.required}
                    onChange={(v) => editor.set(row.uid, 'required', v)}
                  />
                  <div class="button-row">
                    <button
                      type="button"
                      id={id('up')}
                      class="button button-small button-quiet"
                      disabled={index() === 0}
                      aria-label={t('admin.eventForm.q.moveUpLabel', { name: name() })}
                      onClick={() => editor.move(row.uid, -1)}
                    >
                      {t('admin.eventForm.q.up')}
                    </button>
                    <button
                      type="button"
                      id={id('down')}
                      class="button button-small button-quiet"
                      disabled={index() === editor.rows.length - 1}
                      aria-label={t('admin.eventForm.q.moveDownLabel', { name: name() })}
                      onClick={() => editor.move(row.uid, 1)}
                    >
                      {t('admin.eventForm.q.down')}
                    </button>
                    <button
                      type="button"
                      class="button button-small button-quiet button-danger-text"
                      aria-label={t('admin.eventForm.q.removeLabel', { name: name() })}
                      onClick={() => editor.remove(row.uid)}
                    >
                      {t('admin.eventForm.q.remove')}
                    </button>
                  </div>
                </fieldset>
              </li>
            );
          }}
        </For>
      </ol>
      <Show when={editor.general()}>
        <p class="form-error">{editor.general()}</p>
      </Show>
      <div class="button-row">
        <button type="button" id="cf-add" class="button button-quiet" onClick={() => editor.add()}>
          {t('admin.eventForm.q.add')}
        </button>
      </div>
      <p class="visually-hidden" role="status">
        {editor.announcement()}
      </p>
    </fieldset>
  );
}

/**
 * The venue's point from the form's two boxes: null when both are empty, undefined when one is
 * missing, not a number or out of range (docs/decisions/051-link-previews-and-directions.md).
 * A decimal comma is read as a point.
 */
function coordinates(latText: string, lonText: string): { lat: number; lon: number } | null | undefined {
  const lat = latText.trim().replace(',', '.');
  const lon = lonText.trim().replace(',', '.');
  if (lat === '' && lon === '') return null;
  const number = (text: string, limit: number) =>
    /^[-−]?\d+(\.\d+)?$/.test(text) && Math.abs(Number(text.replace('−', '-'))) <= limit ? Number(text.replace('−', '-')) : null;
  const la = number(lat, 90);
  const lo = number(lon, 180);
  return la === null || lo === null ? undefined : { lat: la, lon: lo };
}
