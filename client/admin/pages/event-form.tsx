import { createResource, createSignal, Show, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { CheckboxField, SaveStatus, SelectField, TextArea, TextField } from '../components/fields';
import { createEvent, getEvent, updateEvent, type EventDto } from '../data';
import { adminErrorMessage } from '../errors';
import { centsToText, localInputToUtc, textToCents, utcToLocalInput, viewerTimeZone, PUBLISH_STATUS_OPTIONS } from '../forms';
import { errorMessage } from '../../ui/errors';
import { A, navigate, type RouteProps } from '../../router';
import { submitWith } from '../../ui/forms';

/** `/admin/events/new` and `/admin/events/:id/edit`. */
export default function AdminEventFormPage(props: RouteProps): JSX.Element {
  const id = () => (props.params.id ? Number(props.params.id) : null);
  return (
    <AdminFrame title={id() ? 'Edit event' : 'New event'} area="manage-events">
      {() => <EventLoader id={id()} />}
    </AdminFrame>
  );
}

function EventLoader(props: { id: number | null }): JSX.Element {
  const [event, { refetch }] = createResource(
    () => props.id ?? 0,
    (id) => (id ? getEvent(id) : Promise.resolve(null)),
  );
  return (
    <Show
      when={event.state === 'ready'}
      fallback={
        <Show
          when={event.error}
          fallback={
            <p class="status-text" aria-busy="true">
              Loading the event…
            </p>
          }
        >
          <div class="notice notice-error" role="alert">
            <p>The event could not be loaded. {errorMessage(event.error)}</p>
            <button type="button" class="button" onClick={() => void refetch()}>
              Try again
            </button>
          </div>
        </Show>
      }
    >
      <EventForm event={event() ?? null} />
    </Show>
  );
}

function EventForm(props: { event: EventDto | null }): JSX.Element {
  const e = props.event;
  const [title, setTitle] = createSignal(e?.title ?? '');
  const [description, setDescription] = createSignal(e?.description ?? '');
  const [starts, setStarts] = createSignal(utcToLocalInput(e?.startsUtc));
  const [ends, setEnds] = createSignal(utcToLocalInput(e?.endsUtc));
  const [timezone, setTimezone] = createSignal(e?.timezone ?? viewerTimeZone());
  const [venue, setVenue] = createSignal(e?.venue ?? '');
  const [capacity, setCapacity] = createSignal(e?.capacity == null ? '' : String(e.capacity));
  const [maxPerSignup, setMaxPerSignup] = createSignal(String(e?.maxPerSignup ?? 10));
  const [opens, setOpens] = createSignal(utcToLocalInput(e?.signupOpensUtc));
  const [closes, setCloses] = createSignal(utcToLocalInput(e?.signupClosesUtc));
  const [waitlist, setWaitlist] = createSignal(e?.waitlist ?? true);
  const [status, setStatus] = createSignal<'draft' | 'published'>(e?.status ?? 'draft');
  const [price, setPrice] = createSignal(centsToText(e?.priceCents ?? 0));
  const [state, setState] = createSignal<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const [error, setError] = createSignal<string | null>(null);

  const build = () => {
    const startsUtc = localInputToUtc(starts());
    if (!title().trim()) throw new Error('Give the event a title.');
    if (!startsUtc) throw new Error('Enter when the event starts.');
    const priceCents = textToCents(price());
    if (priceCents === null) throw new Error('Enter the price as an amount, e.g. 12.50.');
    const cap = capacity().trim();
    if (cap !== '' && !/^\d+$/.test(cap)) throw new Error('Capacity must be a whole number, or empty for unlimited.');
    return {
      title: title().trim(),
      description: description(),
      startsUtc,
      endsUtc: localInputToUtc(ends()),
      timezone: timezone(),
      venue: venue(),
      capacity: cap === '' ? null : Number(cap),
      maxPerSignup: Number(maxPerSignup()) || 1,
      signupOpensUtc: localInputToUtc(opens()),
      signupClosesUtc: localInputToUtc(closes()),
      waitlist: waitlist(),
      status: status(),
      priceCents,
    };
  };

  const save = async (publish = false) => {
    if (state() === 'saving') return;
    setError(null);
    let body: ReturnType<typeof build>;
    try {
      body = build();
      if (publish) body.status = 'published';
    } catch (err) {
      setState('failed');
      setError((err as Error).message);
      return;
    }
    setState('saving');
    try {
      const saved = e ? await updateEvent(e.id, body) : await createEvent(body);
      setStatus(saved.status);
      setState('saved');
      if (!e) navigate(`/admin/events/${saved.id}`);
    } catch (err) {
      setState('failed');
      setError(adminErrorMessage(err));
    }
  };

  return (
    <form class="form form-wide" onSubmit={submitWith(save)}>
      <TextField id="event-title" label="Title" value={title()} onInput={setTitle} required maxLength={190} />
      <TextArea id="event-description" label="Description" value={description()} onInput={setDescription} />
      <div class="field-row">
        <TextField id="event-starts" label="Starts" type="datetime-local" value={starts()} onInput={setStarts} required hint="In your time zone." />
        <TextField id="event-ends" label="Ends (optional)" type="datetime-local" value={ends()} onInput={setEnds} />
      </div>
      <TextField
        id="event-timezone"
        label="Event time zone"
        value={timezone()}
        onInput={setTimezone}
        hint="IANA name, e.g. Europe/Berlin: the zone shown to visitors."
      />
      <TextField id="event-venue" label="Venue" value={venue()} onInput={setVenue} />
      <div class="field-row">
        <TextField id="event-capacity" label="Capacity (seats)" inputMode="numeric" value={capacity()} onInput={setCapacity} hint="Empty = unlimited." />
        <TextField id="event-max" label="Most seats per sign-up" type="number" min="1" max="1000" value={maxPerSignup()} onInput={setMaxPerSignup} />
      </div>
      <CheckboxField id="event-waitlist" label="Waitlist when full" checked={waitlist()} onChange={setWaitlist} />
      <div class="field-row">
        <TextField id="event-opens" label="Sign-up opens (optional)" type="datetime-local" value={opens()} onInput={setOpens} />
        <TextField id="event-closes" label="Sign-up closes (optional)" type="datetime-local" value={closes()} onInput={setCloses} />
      </div>
      <TextField id="event-price" label="Price" inputMode="decimal" value={price()} onInput={setPrice} hint="0 = free." />
      <SelectField id="event-status" label="Status" value={status()} options={PUBLISH_STATUS_OPTIONS} onChange={setStatus} />
      <div class="button-row">
        <button type="submit" class="button" aria-disabled={state() === 'saving'}>
          {e ? 'Save changes' : 'Create event'}
        </button>
        <Show when={status() === 'draft'}>
          <button type="button" class="button button-quiet" onClick={() => void save(true)}>
            Save and publish
          </button>
        </Show>
        <Show when={e}>{(ev) => <A href={`/admin/events/${ev().id}`}>Back to the dashboard</A>}</Show>
      </div>
      <SaveStatus state={state()} error={error()} />
    </form>
  );
}
