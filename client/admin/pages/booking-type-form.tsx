import { createMemo, createResource, createSignal, For, Index, Show, type JSX } from 'solid-js';
import { CoverImagePicker } from '../components/cover-image-picker';
import { AdminFrame } from '../components/admin-frame';
import { ready } from '../components/async-view';
import { createConfirm } from '../components/confirm';
import { CheckboxField, SaveButtons, SelectField, TextArea, TextField } from '../components/fields';
import { WeeklyEditor } from '../components/weekly-editor';
import { ASSIGNMENT_LABELS, ASSIGNMENT_MODES, LOCATION_LABELS, LOCATION_MODES, ROLE_LABELS, type AssignmentMode, type LocationMode } from '../constants';
import { createBookingType, deleteBookingType, getBookingType, listSlots, listUsers, updateBookingType } from '../data';
import { edition } from '../edition';
import { listResources } from '../resources-data';
import { centsToText, createSaveAction, parseDayList, textToCents, viewerTimeZone, PUBLISH_STATUS_OPTIONS } from '../forms';
import { weekFromWindows, weekIsValid, windowsFromWeek, type WeekModel } from '../weekly-windows';
import { errorMessage } from '../../ui/errors';
import type { BookingTypeDto, BookingTypeInput } from '../../../shared/booking';
import type { HoursSource, Slot } from '../../../shared/booking/slots';
import { MEETING_PATTERN_MAX, MEETING_PLACEHOLDERS } from '../../../shared/booking/meeting-links';
import { parseUtcString } from '../../../shared/time';
import { A, navigate, type RouteProps } from '../../router';
import { submitWith } from '../../ui/forms';
import { intlLocale, t, tx } from '../../i18n/i18n';
import { TimeZonePicker } from '../../ui/time-zone-picker';

/** How many upcoming slots the preview lists. */
const PREVIEW_SLOTS = 12;

export default function AdminBookingTypeFormPage(props: RouteProps): JSX.Element {
  const id = () => (props.params.id && props.params.id !== 'new' ? Number(props.params.id) : null);
  return (
    <AdminFrame title={id() ? t('admin.bookingTypeForm.editTitle') : t('admin.bookingTypeForm.newTitle')} area="booking">
      {() => {
        const [type, { refetch }] = createResource(
          () => id() ?? 0,
          (typeId) => (typeId ? getBookingType(typeId) : Promise.resolve(null)),
        );
        return (
          <Show
            when={type.state === 'ready'}
            fallback={
              <Show
                when={type.error}
                fallback={
                  <p class="status-text" aria-busy="true">
                    {t('admin.bookingTypeForm.loading')}
                  </p>
                }
              >
                <div class="notice notice-error" role="alert">
                  <p>{t('admin.bookingTypeForm.loadFailed', { reason: errorMessage(type.error) })}</p>
                  <button type="button" class="button" onClick={() => void refetch()}>
                    {t('admin.bookingTypeForm.retry')}
                  </button>
                </div>
              </Show>
            }
          >
            <BookingTypeEditor type={type() ?? null} />
            {/* beside the form, not in it: the image is saved on its own */}
            <Show when={type()}>{(bt) => <CoverImagePicker owner="bookingType" id={bt().id} image={bt().image} />}</Show>
          </Show>
        );
      }}
    </AdminFrame>
  );
}

function BookingTypeEditor(props: { type: BookingTypeDto | null }): JSX.Element {
  const existing = props.type;
  const [savedId, setSavedId] = createSignal<number | null>(existing?.id ?? null);
  const [title, setTitle] = createSignal(existing?.title ?? '');
  const [slug, setSlug] = createSignal(existing?.slug ?? '');
  const [description, setDescription] = createSignal(existing?.description ?? '');
  const [status, setStatus] = createSignal<'draft' | 'published'>(existing?.status ?? 'draft');
  const [duration, setDuration] = createSignal(String(existing?.durationMinutes ?? 30));
  const [slotInterval, setSlotInterval] = createSignal(
    existing && existing.slotIntervalMinutes !== existing.durationMinutes ? String(existing.slotIntervalMinutes) : '',
  );
  const [timezone, setTimezone] = createSignal(existing?.timezone ?? viewerTimeZone());
  const [hosts, setHosts] = createSignal<number[]>(existing?.hosts ?? []);
  const [assignment, setAssignment] = createSignal<AssignmentMode>((existing?.assignment || 'round_robin') as AssignmentMode);
  const [week, setWeek] = createSignal<WeekModel>(weekFromWindows(existing?.weeklyWindows));
  // one date input per day off; an empty one (just added, or cleared) is left out when saving
  const [daysOff, setDaysOff] = createSignal<string[]>(existing?.daysOff ?? []);
  const [notice, setNotice] = createSignal(String(existing?.minNoticeMinutes ?? 0));
  const [advance, setAdvance] = createSignal(String(existing?.maxAdvanceDays ?? 60));
  const [bufferBefore, setBufferBefore] = createSignal(String(existing?.bufferBeforeMinutes ?? 0));
  const [bufferAfter, setBufferAfter] = createSignal(String(existing?.bufferAfterMinutes ?? 0));
  const [capacity, setCapacity] = createSignal(String(existing?.capacity ?? 1));
  const [price, setPrice] = createSignal(centsToText(existing?.priceCents ?? 0));
  const [approval, setApproval] = createSignal(existing?.requiresApproval ?? false);
  const [locationMode, setLocationMode] = createSignal<LocationMode>(existing?.locationMode ?? 'in_person');
  const [locationValue, setLocationValue] = createSignal(existing?.locationValue ?? '');
  const [meetingLinkPattern, setMeetingLinkPattern] = createSignal(existing?.meetingLinkPattern ?? '');
  const [resourceIds, setResourceIds] = createSignal<number[]>(existing?.resourceIds ?? []);
  const [hoursSource, setHoursSource] = createSignal<HoursSource>(existing?.hoursSource ?? 'type');
  const saving = createSaveAction();
  const [previewTick, setPreviewTick] = createSignal(0);
  const confirm = createConfirm();

  const [users] = createResource(listUsers);
  // Shared resources are an extended-edition feature: only asked for (and shown) there.
  const [resources] = createResource(() => edition() === 'extended', listResources);
  const hostChoices = createMemo(() => (ready(users) ?? []).filter((u) => u.role !== 'staff'));
  const daysOffParsed = createMemo(() => parseDayList(daysOff().join('\n')));
  const setDayOff = (index: number, day: string) => setDaysOff(daysOff().map((d, i) => (i === index ? day : d)));
  const addDayOff = () => {
    setDaysOff([...daysOff(), '']);
    document.getElementById(`bt-dayoff-${daysOff().length - 1}`)?.focus();
  };
  const removeDayOff = (index: number) => {
    setDaysOff(daysOff().filter((_, i) => i !== index));
    // the focus goes to the add button, which stays where the list ends
    document.getElementById('bt-dayoff-add')?.focus();
  };

  const whole = (value: string, name: string, min = 0): number => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < min)
      throw new Error(min > 0 ? t('admin.bookingTypeForm.wholeNumberMin', { name, min }) : t('admin.bookingTypeForm.wholeNumber', { name }));
    return Number(value);
  };

  const build = (): BookingTypeInput => {
    if (!title().trim()) throw new Error(t('admin.bookingTypeForm.titleMissing'));
    if (!weekIsValid(week())) throw new Error(t('admin.bookingTypeForm.fixWeek'));
    if (daysOffParsed().invalid.length > 0) throw new Error(t('admin.bookingTypeForm.daysOffInvalid', { dates: daysOffParsed().invalid.join(', ') }));
    const priceCents = textToCents(price());
    if (priceCents === null) throw new Error(t('admin.bookingTypeForm.priceInvalid'));
    return {
      title: title().trim(),
      ...(slug().trim() ? { slug: slug().trim() } : {}),
      description: description(),
      status: status(),
      durationMinutes: whole(duration(), t('admin.bookingTypeForm.name.duration'), 5),
      slotIntervalMinutes: slotInterval().trim() === '' ? null : whole(slotInterval(), t('admin.bookingTypeForm.name.interval'), 5),
      timezone: timezone().trim(),
      hosts: hosts(),
      assignment: assignment(),
      hoursSource: hoursSource(),
      weeklyWindows: windowsFromWeek(week()),
      daysOff: daysOffParsed().days,
      minNoticeMinutes: whole(notice(), t('admin.bookingTypeForm.name.notice')),
      maxAdvanceDays: whole(advance(), t('admin.bookingTypeForm.name.advance')),
      bufferBeforeMinutes: whole(bufferBefore(), t('admin.bookingTypeForm.name.bufferBefore')),
      bufferAfterMinutes: whole(bufferAfter(), t('admin.bookingTypeForm.name.bufferAfter')),
      capacity: whole(capacity(), t('admin.bookingTypeForm.name.capacity'), 1),
      priceCents,
      requiresApproval: approval(),
      locationMode: locationMode(),
      locationValue: locationValue(),
      meetingLinkPattern: locationMode() === 'virtual' ? meetingLinkPattern() : '',
      resourceIds: resourceIds(),
    };
  };

  const save = async () => {
    if (saving.busy()) return;
    let body: BookingTypeInput;
    try {
      body = build();
    } catch (err) {
      return saving.fail((err as Error).message);
    }
    await saving.run(async () => {
      const id = savedId();
      const saved = id ? await updateBookingType(id, body) : await createBookingType(body);
      setSlug(saved.slug);
      setPreviewTick((n) => n + 1);
      if (!id) {
        setSavedId(saved.id);
        navigate(`/admin/booking-types/${saved.id}`, { replace: true });
      }
    });
  };

  const askDelete = () => {
    const id = savedId();
    if (!id) return;
    confirm.ask({
      title: t('admin.bookingTypeForm.deleteTitle', { title: title() }),
      detail: t('admin.bookingTypeForm.deleteDetail'),
      confirmLabel: t('admin.bookingTypeForm.deleteConfirm'),
      action: () => deleteBookingType(id),
      onDone: () => navigate('/admin/booking-types'),
    });
  };

  return (
    <div class="editor-layout">
      <form class="form form-wide" onSubmit={submitWith(save)} aria-label={t('admin.bookingTypeForm.formLabel')}>
        <TextField id="bt-title" label={t('admin.bookingTypeForm.title')} value={title()} onInput={setTitle} required maxLength={190} />
        <TextField id="bt-slug" label={t('admin.bookingTypeForm.slug')} value={slug()} onInput={setSlug} hint={t('admin.bookingTypeForm.slugHint')} />
        <TextArea id="bt-description" label={t('admin.bookingTypeForm.description')} value={description()} onInput={setDescription} />
        <div class="field-row">
          <TextField
            id="bt-duration"
            label={t('admin.bookingTypeForm.duration')}
            type="number"
            min="5"
            max="1440"
            value={duration()}
            onInput={setDuration}
            required
          />
          <TextField
            id="bt-interval"
            label={t('admin.bookingTypeForm.interval')}
            type="number"
            min="5"
            max="1440"
            value={slotInterval()}
            onInput={setSlotInterval}
            hint={t('admin.bookingTypeForm.intervalHint')}
          />
        </div>
        <div class="field">
          <TimeZonePicker
            id="bt-timezone"
            label={t('admin.bookingTypeForm.timezone')}
            value={timezone()}
            onChange={setTimezone}
            hint={t('admin.bookingTypeForm.timezoneHint')}
          />
        </div>
        <WeeklyEditor value={week()} onChange={setWeek} timezone={timezone()} />
        <fieldset class="field" aria-describedby="bt-daysoff-hint">
          <legend>{t('admin.bookingTypeForm.daysOff')}</legend>
          <p id="bt-daysoff-hint" class="field-hint">
            {t('admin.bookingTypeForm.daysOffHint')}
          </p>
          <Show when={daysOff().length > 0} fallback={<p class="muted">{t('admin.bookingTypeForm.noDaysOff')}</p>}>
            <ul class="window-list days-off-list">
              <Index each={daysOff()}>
                {(day, i) => (
                  <li class="window-item">
                    <label class="visually-hidden" for={`bt-dayoff-${i}`}>
                      {t('admin.bookingTypeForm.dayOffLabel', { number: i + 1 })}
                    </label>
                    <input id={`bt-dayoff-${i}`} class="input-date" type="date" value={day()} onInput={(e) => setDayOff(i, e.currentTarget.value)} />
                    <button type="button" class="button button-small button-quiet" onClick={() => removeDayOff(i)}>
                      {tx('admin.bookingTypeForm.removeDayOff', { number: i + 1, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                    </button>
                  </li>
                )}
              </Index>
            </ul>
          </Show>
          <div class="button-row">
            <button id="bt-dayoff-add" type="button" class="button button-small" onClick={addDayOff}>
              {t('admin.bookingTypeForm.addDayOff')}
            </button>
          </div>
        </fieldset>
        <div class="field-row">
          <TextField id="bt-notice" label={t('admin.bookingTypeForm.notice')} type="number" min="0" value={notice()} onInput={setNotice} />
          <TextField
            id="bt-advance"
            label={t('admin.bookingTypeForm.advance')}
            type="number"
            min="0"
            value={advance()}
            onInput={setAdvance}
            hint={t('admin.bookingTypeForm.advanceHint')}
          />
        </div>
        <div class="field-row">
          <TextField
            id="bt-buffer-before"
            label={t('admin.bookingTypeForm.bufferBefore')}
            type="number"
            min="0"
            value={bufferBefore()}
            onInput={setBufferBefore}
          />
          <TextField id="bt-buffer-after" label={t('admin.bookingTypeForm.bufferAfter')} type="number" min="0" value={bufferAfter()} onInput={setBufferAfter} />
        </div>
        <TextField id="bt-capacity" label={t('admin.bookingTypeForm.capacity')} type="number" min="1" max="1000" value={capacity()} onInput={setCapacity} />
        <fieldset class="field">
          <legend>{t('admin.bookingTypeForm.hosts')}</legend>
          <Show
            when={users.state === 'ready'}
            fallback={
              <p class="status-text">
                {users.error ? t('admin.bookingTypeForm.usersFailed', { reason: errorMessage(users.error) }) : t('admin.bookingTypeForm.usersLoading')}
              </p>
            }
          >
            <Show when={hostChoices().length > 0} fallback={<p class="status-text">{t('admin.bookingTypeForm.noHosts')}</p>}>
              <ul class="check-list">
                <For each={hostChoices()}>
                  {(u) => (
                    <li>
                      <input
                        id={`bt-host-${u.id}`}
                        type="checkbox"
                        checked={hosts().includes(u.id)}
                        onChange={(e) => setHosts(e.currentTarget.checked ? [...hosts(), u.id] : hosts().filter((h) => h !== u.id))}
                      />
                      <label for={`bt-host-${u.id}`}>
                        {u.displayName || u.email} <span class="muted">({ROLE_LABELS[u.role]})</span>
                      </label>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
          </Show>
        </fieldset>
        <Show when={edition() === 'extended'}>
          <fieldset class="field" aria-describedby="bt-resources-hint">
            <legend>{t('admin.bookingTypeForm.resources')}</legend>
            <p id="bt-resources-hint" class="field-hint">
              {t('admin.bookingTypeForm.resourcesHint')} <A href="/admin/resources">{t('admin.bookingTypeForm.manageResources')}</A>
            </p>
            <Show
              when={resources.state === 'ready'}
              fallback={
                <p class="status-text">
                  {resources.error
                    ? t('admin.bookingTypeForm.resourcesFailed', { reason: errorMessage(resources.error) })
                    : t('admin.bookingTypeForm.resourcesLoading')}
                </p>
              }
            >
              <Show when={(ready(resources) ?? []).length > 0} fallback={<p class="status-text">{t('admin.bookingTypeForm.noResources')}</p>}>
                <ul class="check-list">
                  <For each={ready(resources) ?? []}>
                    {(r) => (
                      <li>
                        <input
                          id={`bt-resource-${r.id}`}
                          type="checkbox"
                          checked={resourceIds().includes(r.id)}
                          onChange={(e) => setResourceIds(e.currentTarget.checked ? [...resourceIds(), r.id] : resourceIds().filter((x) => x !== r.id))}
                        />
                        <label for={`bt-resource-${r.id}`}>
                          {r.name} <span class="muted">{t('admin.bookingTypeForm.resourceCapacity', { capacity: r.capacity })}</span>
                        </label>
                      </li>
                    )}
                  </For>
                </ul>
              </Show>
            </Show>
          </fieldset>
        </Show>
        <SelectField
          id="bt-hours-source"
          label={t('admin.bookingTypeForm.hoursSource')}
          hint={t('admin.bookingTypeForm.hoursSourceHint')}
          value={hoursSource()}
          options={[
            { value: 'type', label: t('admin.bookingTypeForm.hoursSourceType') },
            { value: 'hosts', label: t('admin.bookingTypeForm.hoursSourceHosts') },
          ]}
          onChange={setHoursSource}
        />
        <SelectField
          id="bt-assignment"
          label={t('admin.bookingTypeForm.assignment')}
          value={assignment()}
          options={ASSIGNMENT_MODES.map((m) => ({ value: m, label: ASSIGNMENT_LABELS[m] }))}
          onChange={setAssignment}
        />
        <CheckboxField id="bt-approval" label={t('admin.bookingTypeForm.approval')} checked={approval()} onChange={setApproval} />
        <TextField
          id="bt-price"
          label={t('admin.bookingTypeForm.price')}
          inputMode="decimal"
          value={price()}
          onInput={setPrice}
          hint={t('admin.bookingTypeForm.priceHint')}
        />
        <div class="field-row">
          <SelectField
            id="bt-location-mode"
            label={t('admin.bookingTypeForm.location')}
            value={locationMode()}
            options={LOCATION_MODES.map((m) => ({ value: m, label: LOCATION_LABELS[m] }))}
            onChange={setLocationMode}
          />
          <TextField id="bt-location-value" label={t('admin.bookingTypeForm.locationValue')} value={locationValue()} onInput={setLocationValue} />
        </div>
        <Show when={locationMode() === 'virtual'}>
          <TextField
            id="bt-meeting-link-pattern"
            label={t('admin.bookingTypeForm.meetingLinkPattern')}
            value={meetingLinkPattern()}
            onInput={setMeetingLinkPattern}
            maxLength={MEETING_PATTERN_MAX}
            hint={t('admin.bookingTypeForm.meetingLinkPatternHint', {
              example: 'https://meet.jit.si/{org}-{token}',
              placeholders: MEETING_PLACEHOLDERS.map((p) => `{${p}}`).join(', '),
            })}
          />
        </Show>
        <SelectField id="bt-status" label={t('admin.bookingTypeForm.status')} value={status()} options={PUBLISH_STATUS_OPTIONS} onChange={setStatus} />
        <SaveButtons action={saving} label={savedId() ? t('admin.bookingTypeForm.save') : t('admin.bookingTypeForm.create')}>
          <Show when={savedId()}>
            <button type="button" class="button button-quiet button-danger-text" onClick={askDelete}>
              {t('admin.bookingTypeForm.delete')}
            </button>
          </Show>
          <A href="/admin/booking-types">{t('admin.bookingTypeForm.all')}</A>
        </SaveButtons>
      </form>
      <SlotPreview typeId={savedId()} tick={previewTick()} status={status()} />
      {confirm.view()}
    </div>
  );
}

// the reader's locale and its clock (3:00 PM or 15:00)
const dayFormat = () => new Intl.DateTimeFormat(intlLocale(), { weekday: 'short', day: 'numeric', month: 'short' });
const timeFormat = () => new Intl.DateTimeFormat(intlLocale(), { timeStyle: 'short' });

/** The next slots exactly as the public slots route answers a visitor in this browser's zone. */
function SlotPreview(props: { typeId: number | null; tick: number; status: string }): JSX.Element {
  const tz = viewerTimeZone();
  const [slots, { refetch }] = createResource(
    () => (props.typeId ? { id: props.typeId, tick: props.tick } : null),
    async ({ id }) => (await listSlots(id, { tz })).slice(0, PREVIEW_SLOTS),
  );
  const byDay = createMemo(() => {
    const groups: Array<{ day: string; slots: Slot[] }> = [];
    for (const slot of ready(slots) ?? []) {
      const date = parseUtcString(slot.start_utc);
      const day = date ? dayFormat().format(date) : slot.start_utc.slice(0, 10);
      const last = groups.at(-1);
      if (last && last.day === day) last.slots.push(slot);
      else groups.push({ day, slots: [slot] });
    }
    return groups;
  });
  return (
    <aside class="slot-preview" aria-labelledby="preview-heading">
      <div class="section-header">
        <h2 id="preview-heading">{t('admin.bookingTypeForm.preview')}</h2>
        <Show when={props.typeId}>
          <button type="button" class="button button-small button-quiet" onClick={() => void refetch()}>
            {t('admin.bookingTypeForm.refresh')}
          </button>
        </Show>
      </div>
      <p class="field-hint">{t('admin.bookingTypeForm.previewHint', { count: PREVIEW_SLOTS, tz })}</p>
      <Show when={props.status === 'draft' && props.typeId}>
        <p class="notice">{t('admin.bookingTypeForm.previewDraft')}</p>
      </Show>
      <Show when={props.typeId} fallback={<p class="status-text">{t('admin.bookingTypeForm.previewUnsaved')}</p>}>
        <Show
          when={!slots.error}
          fallback={
            <p class="form-error" role="alert">
              {t('admin.bookingTypeForm.slotsFailed', { reason: errorMessage(slots.error) })}
            </p>
          }
        >
          <Show
            when={ready(slots)}
            fallback={
              <p class="status-text" aria-busy="true">
                {t('admin.bookingTypeForm.slotsLoading')}
              </p>
            }
          >
            <Show when={byDay().length > 0} fallback={<p class="status-text">{t('admin.bookingTypeForm.noSlots')}</p>}>
              <ul class="preview-days" aria-live="polite">
                <For each={byDay()}>
                  {(group) => (
                    <li>
                      <h3>{group.day}</h3>
                      <ul class="preview-slots">
                        <For each={group.slots}>
                          {(slot) => {
                            const date = parseUtcString(slot.start_utc);
                            return (
                              <li class="preview-slot">
                                <time datetime={date?.toISOString()}>{date ? timeFormat().format(date) : slot.label}</time>
                                <span class="muted"> · {t('admin.bookingTypeForm.left', { count: slot.capacity_left })}</span>
                              </li>
                            );
                          }}
                        </For>
                      </ul>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
          </Show>
        </Show>
      </Show>
    </aside>
  );
}
