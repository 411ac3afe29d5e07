import { createMemo, createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { ready } from '../components/async-view';
import { createConfirm } from '../components/confirm';
import { CheckboxField, SaveStatus, SelectField, TextArea, TextField } from '../components/fields';
import { WeeklyEditor } from '../components/weekly-editor';
import { ASSIGNMENT_LABELS, ASSIGNMENT_MODES, LOCATION_LABELS, LOCATION_MODES, type AssignmentMode, type LocationMode } from '../constants';
import { createBookingType, deleteBookingType, getBookingType, listSlots, listUsers, updateBookingType } from '../data';
import { edition } from '../edition';
import { adminErrorMessage } from '../errors';
import { listResources } from '../resources-data';
import { centsToText, parseDayList, textToCents, viewerTimeZone, PUBLISH_STATUS_OPTIONS } from '../forms';
import { weekFromWindows, weekIsValid, windowsFromWeek, type WeekModel } from '../weekly-windows';
import { errorMessage } from '../../ui/errors';
import type { BookingTypeDto, BookingTypeInput } from '../../../shared/booking';
import type { Slot } from '../../../shared/booking/slots';
import { parseUtcString } from '../../../shared/time';
import { A, navigate, type RouteProps } from '../../router';
import { submitWith } from '../../ui/forms';

/** How many upcoming slots the preview lists. */
const PREVIEW_SLOTS = 12;

export default function AdminBookingTypeFormPage(props: RouteProps): JSX.Element {
  const id = () => (props.params.id && props.params.id !== 'new' ? Number(props.params.id) : null);
  return (
    <AdminFrame title={id() ? 'Edit booking type' : 'New booking type'} area="booking">
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
                    Loading the booking type…
                  </p>
                }
              >
                <div class="notice notice-error" role="alert">
                  <p>The booking type could not be loaded. {errorMessage(type.error)}</p>
                  <button type="button" class="button" onClick={() => void refetch()}>
                    Try again
                  </button>
                </div>
              </Show>
            }
          >
            <BookingTypeEditor type={type() ?? null} />
          </Show>
        );
      }}
    </AdminFrame>
  );
}

function BookingTypeEditor(props: { type: BookingTypeDto | null }): JSX.Element {
  const t = props.type;
  const [savedId, setSavedId] = createSignal<number | null>(t?.id ?? null);
  const [title, setTitle] = createSignal(t?.title ?? '');
  const [slug, setSlug] = createSignal(t?.slug ?? '');
  const [description, setDescription] = createSignal(t?.description ?? '');
  const [status, setStatus] = createSignal<'draft' | 'published'>(t?.status ?? 'draft');
  const [duration, setDuration] = createSignal(String(t?.durationMinutes ?? 30));
  const [slotInterval, setSlotInterval] = createSignal(t && t.slotIntervalMinutes !== t.durationMinutes ? String(t.slotIntervalMinutes) : '');
  const [timezone, setTimezone] = createSignal(t?.timezone ?? viewerTimeZone());
  const [hosts, setHosts] = createSignal<number[]>(t?.hosts ?? []);
  const [assignment, setAssignment] = createSignal<AssignmentMode>((t?.assignment || 'round_robin') as AssignmentMode);
  const [week, setWeek] = createSignal<WeekModel>(weekFromWindows(t?.weeklyWindows));
  const [daysOff, setDaysOff] = createSignal((t?.daysOff ?? []).join('\n'));
  const [notice, setNotice] = createSignal(String(t?.minNoticeMinutes ?? 0));
  const [advance, setAdvance] = createSignal(String(t?.maxAdvanceDays ?? 60));
  const [bufferBefore, setBufferBefore] = createSignal(String(t?.bufferBeforeMinutes ?? 0));
  const [bufferAfter, setBufferAfter] = createSignal(String(t?.bufferAfterMinutes ?? 0));
  const [capacity, setCapacity] = createSignal(String(t?.capacity ?? 1));
  const [price, setPrice] = createSignal(centsToText(t?.priceCents ?? 0));
  const [approval, setApproval] = createSignal(t?.requiresApproval ?? false);
  const [locationMode, setLocationMode] = createSignal<LocationMode>(t?.locationMode ?? 'in_person');
  const [locationValue, setLocationValue] = createSignal(t?.locationValue ?? '');
  const [resourceIds, setResourceIds] = createSignal<number[]>(t?.resourceIds ?? []);
  const [state, setState] = createSignal<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const [error, setError] = createSignal<string | null>(null);
  const [previewTick, setPreviewTick] = createSignal(0);
  const confirm = createConfirm();

  const [users] = createResource(listUsers);
  // Shared resources are an extended-edition feature: only asked for (and shown) there.
  const [resources] = createResource(() => edition() === 'extended', listResources);
  const hostChoices = createMemo(() => (ready(users) ?? []).filter((u) => u.role !== 'staff'));
  const daysOffParsed = createMemo(() => parseDayList(daysOff()));

  const whole = (value: string, name: string, min = 0): number => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < min) throw new Error(`${name} must be a whole number${min > 0 ? ` of at least ${min}` : ''}.`);
    return Number(value);
  };

  const build = (): BookingTypeInput => {
    if (!title().trim()) throw new Error('Give the booking type a title.');
    if (!weekIsValid(week())) throw new Error('Fix the weekly availability first.');
    if (daysOffParsed().invalid.length > 0) throw new Error(`Days off must be dates like 2030-12-24: ${daysOffParsed().invalid.join(', ')}.`);
    const priceCents = textToCents(price());
    if (priceCents === null) throw new Error('Enter the price as an amount, e.g. 40.00.');
    return {
      title: title().trim(),
      ...(slug().trim() ? { slug: slug().trim() } : {}),
      description: description(),
      status: status(),
      durationMinutes: whole(duration(), 'Duration', 5),
      slotIntervalMinutes: slotInterval().trim() === '' ? null : whole(slotInterval(), 'Slot interval', 5),
      timezone: timezone().trim(),
      hosts: hosts(),
      assignment: assignment(),
      weeklyWindows: windowsFromWeek(week()),
      daysOff: daysOffParsed().days,
      minNoticeMinutes: whole(notice(), 'Minimum notice'),
      maxAdvanceDays: whole(advance(), 'Booking window'),
      bufferBeforeMinutes: whole(bufferBefore(), 'Buffer before'),
      bufferAfterMinutes: whole(bufferAfter(), 'Buffer after'),
      capacity: whole(capacity(), 'Seats per slot', 1),
      priceCents,
      requiresApproval: approval(),
      locationMode: locationMode(),
      locationValue: locationValue(),
      resourceIds: resourceIds(),
    };
  };

  const save = async () => {
    if (state() === 'saving') return;
    setError(null);
    let body: BookingTypeInput;
    try {
      body = build();
    } catch (err) {
      setState('failed');
      setError((err as Error).message);
      return;
    }
    setState('saving');
    try {
      const id = savedId();
      const saved = id ? await updateBookingType(id, body) : await createBookingType(body);
      setSlug(saved.slug);
      setState('saved');
      setPreviewTick((n) => n + 1);
      if (!id) {
        setSavedId(saved.id);
        navigate(`/admin/booking-types/${saved.id}`, { replace: true });
      }
    } catch (err) {
      setState('failed');
      setError(adminErrorMessage(err));
    }
  };

  const askDelete = () => {
    const id = savedId();
    if (!id) return;
    confirm.ask({
      title: `Delete the booking type “${title()}”?`,
      detail: 'Only a type without bookings can be deleted.',
      confirmLabel: 'Delete booking type',
      action: () => deleteBookingType(id),
      onDone: () => navigate('/admin/booking-types'),
    });
  };

  return (
    <div class="editor-layout">
      <form class="form form-wide" onSubmit={submitWith(save)} aria-label="Booking type">
        <TextField id="bt-title" label="Title" value={title()} onInput={setTitle} required maxLength={190} />
        <TextField
          id="bt-slug"
          label="Slug (optional)"
          value={slug()}
          onInput={setSlug}
          hint="Lowercase letters, digits and dashes; made from the title when empty."
        />
        <TextArea id="bt-description" label="Description" value={description()} onInput={setDescription} />
        <div class="field-row">
          <TextField id="bt-duration" label="Duration (minutes)" type="number" min="5" max="1440" value={duration()} onInput={setDuration} required />
          <TextField
            id="bt-interval"
            label="Slot interval (minutes)"
            type="number"
            min="5"
            max="1440"
            value={slotInterval()}
            onInput={setSlotInterval}
            hint="Empty = the duration."
          />
        </div>
        <TextField id="bt-timezone" label="Time zone" value={timezone()} onInput={setTimezone} hint="IANA name; the weekly windows are in this zone." />
        <WeeklyEditor value={week()} onChange={setWeek} timezone={timezone()} />
        <div class="field">
          <label for="bt-daysoff">Days off</label>
          <textarea id="bt-daysoff" rows="3" aria-describedby="bt-daysoff-hint" onInput={(e) => setDaysOff(e.currentTarget.value)}>
            {daysOff()}
          </textarea>
          <p id="bt-daysoff-hint" class="field-hint">
            One date per line, e.g. 2030-12-24 (in the type's time zone).
          </p>
          <Show when={daysOffParsed().invalid.length > 0}>
            <p class="form-error">Not dates: {daysOffParsed().invalid.join(', ')}</p>
          </Show>
        </div>
        <div class="field-row">
          <TextField id="bt-notice" label="Minimum notice (minutes)" type="number" min="0" value={notice()} onInput={setNotice} />
          <TextField id="bt-advance" label="Bookable up to (days ahead)" type="number" min="0" value={advance()} onInput={setAdvance} hint="0 = no limit." />
        </div>
        <div class="field-row">
          <TextField id="bt-buffer-before" label="Buffer before (minutes)" type="number" min="0" value={bufferBefore()} onInput={setBufferBefore} />
          <TextField id="bt-buffer-after" label="Buffer after (minutes)" type="number" min="0" value={bufferAfter()} onInput={setBufferAfter} />
        </div>
        <TextField id="bt-capacity" label="Seats per host per slot" type="number" min="1" max="1000" value={capacity()} onInput={setCapacity} />
        <fieldset class="field">
          <legend>Hosts</legend>
          <Show
            when={users.state === 'ready'}
            fallback={<p class="status-text">{users.error ? `Users could not be loaded. ${errorMessage(users.error)}` : 'Loading users…'}</p>}
          >
            <Show when={hostChoices().length > 0} fallback={<p class="status-text">No hosts yet: add users with the host role under Settings & people.</p>}>
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
                        {u.displayName || u.email} <span class="muted">({u.role})</span>
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
            <legend>Resources</legend>
            <p id="bt-resources-hint" class="field-hint">
              Rooms or equipment every booking needs. A slot is offered only while each has room, counting the bookings of every type that needs it.{' '}
              <A href="/admin/resources">Manage resources</A>
            </p>
            <Show
              when={resources.state === 'ready'}
              fallback={<p class="status-text">{resources.error ? `Resources could not be loaded. ${errorMessage(resources.error)}` : 'Loading resources…'}</p>}
            >
              <Show when={(ready(resources) ?? []).length > 0} fallback={<p class="status-text">No resources yet.</p>}>
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
                          {r.name} <span class="muted">(capacity {r.capacity})</span>
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
          id="bt-assignment"
          label="Assignment"
          value={assignment()}
          options={ASSIGNMENT_MODES.map((m) => ({ value: m, label: ASSIGNMENT_LABELS[m] }))}
          onChange={setAssignment}
        />
        <CheckboxField id="bt-approval" label="Bookings need my approval" checked={approval()} onChange={setApproval} />
        <TextField id="bt-price" label="Price" inputMode="decimal" value={price()} onInput={setPrice} hint="0 = free; in the site currency." />
        <div class="field-row">
          <SelectField
            id="bt-location-mode"
            label="Location"
            value={locationMode()}
            options={LOCATION_MODES.map((m) => ({ value: m, label: LOCATION_LABELS[m] }))}
            onChange={setLocationMode}
          />
          <TextField id="bt-location-value" label="Address, link or number" value={locationValue()} onInput={setLocationValue} />
        </div>
        <SelectField id="bt-status" label="Status" value={status()} options={PUBLISH_STATUS_OPTIONS} onChange={setStatus} />
        <div class="button-row">
          <button type="submit" class="button" aria-disabled={state() === 'saving'}>
            {savedId() ? 'Save changes' : 'Create booking type'}
          </button>
          <Show when={savedId()}>
            <button type="button" class="button button-quiet button-danger-text" onClick={askDelete}>
              Delete
            </button>
          </Show>
          <A href="/admin/booking-types">All booking types</A>
        </div>
        <SaveStatus state={state()} error={error()} />
      </form>
      <SlotPreview typeId={savedId()} tick={previewTick()} status={status()} />
      {confirm.view()}
    </div>
  );
}

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

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
      const day = date ? dayFormat.format(date) : slot.start_utc.slice(0, 10);
      const last = groups.at(-1);
      if (last && last.day === day) last.slots.push(slot);
      else groups.push({ day, slots: [slot] });
    }
    return groups;
  });
  return (
    <aside class="slot-preview" aria-labelledby="preview-heading">
      <div class="section-header">
        <h2 id="preview-heading">Visitor preview</h2>
        <Show when={props.typeId}>
          <button type="button" class="button button-small button-quiet" onClick={() => void refetch()}>
            Refresh
          </button>
        </Show>
      </div>
      <p class="field-hint">
        The next {PREVIEW_SLOTS} bookable slots as a visitor in {tz} sees them, after saving.
      </p>
      <Show when={props.status === 'draft' && props.typeId}>
        <p class="notice">Draft: visitors cannot book it yet. These are the slots they will see once it is published.</p>
      </Show>
      <Show when={props.typeId} fallback={<p class="status-text">Save the booking type to see its slots.</p>}>
        <Show
          when={!slots.error}
          fallback={
            <p class="form-error" role="alert">
              The slots could not be loaded. {errorMessage(slots.error)}
            </p>
          }
        >
          <Show
            when={ready(slots)}
            fallback={
              <p class="status-text" aria-busy="true">
                Loading slots…
              </p>
            }
          >
            <Show when={byDay().length > 0} fallback={<p class="status-text">No bookable slots: check the windows, hosts, notice and days off.</p>}>
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
                                <time datetime={date?.toISOString()}>{date ? timeFormat.format(date) : slot.label}</time>
                                <span class="muted"> · {slot.capacity_left} left</span>
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
