/**
 * Door mode's state, one per tab and alive while the app runs (the update gate and the sync
 * engine outlive the page): the database, the sync engine and its status, the paired device,
 * the unsynced count, and the scan pipeline — decode → SHA-256 → in-memory lookup → verdict on
 * screen → sound and buzz → scan and outbox item written in one transaction → sync.
 */
import { createComputed, createRoot, createSignal, on, type Accessor } from 'solid-js';
import type { CheckinSource } from '../../shared/checkin-rules';
import { openDoorDb, type DeviceRecord, type DoorDb } from './db/door-db';
import { attendeeIndex, indexNow, type AttendeeIndex } from './db/attendee-index';
import { createLiveValue } from '../offline/live';
import { requestPersistentStorage } from '../offline/persistent-storage';
import { pendingCount, recordScan, type LastCheckin } from './db/scans';
import { decideScan, SERVER_LOOKUP_TIMEOUT_MS, type DoorVerdict, type ListProgress } from './scan-decision';
import { categoryName, checkinListOf } from './categories';
import { recordWalkIn } from './db/walk-ins';
import { setUpdateGate } from '../pwa';
import { readMuted, playFeedback, writeMuted } from './scanner/feedback';
import { createSameCodeFilter, normalizeTicketCode, sha256Hex } from './scanner/input';
import { createSyncEngine, type SyncEngine, type SyncStatus } from './sync/engine';
import { trpcTransport } from './sync/transport';

export interface ShownVerdict {
  /** `loading`: the list is still downloading and the server was not reached (nothing recorded). */
  verdict: DoorVerdict;
  /** For `loading`: how much of the list is on the device. */
  progress: ListProgress | null;
  clientId: string;
  displayName: string;
  quantity: number;
  last: LastCheckin | null;
  scannedMs: number;
  /** Bumped per scan so the same verdict twice still restarts the auto-dismiss. */
  seq: number;
  /** The code that was read, for the volunteer to compare with the ticket (null for name search); shown only, never logged or stored. */
  code: string | null;
  /** The ticket's category name (null: none, or the event has no categories). */
  category: string | null;
  /** For `wrong_category`: the names of the categories this door admits at the event. */
  admits: string[];
}

export interface DoorState {
  db: DoorDb;
  engine: SyncEngine;
  status: Accessor<SyncStatus>;
  device: Accessor<DeviceRecord | null | undefined>;
  deviceLoading: Accessor<boolean>;
  /** The attendee list is in memory (built from IndexedDB at start, db/attendee-index.ts): scans answer at once. */
  attendeesReady: Accessor<boolean>;
  pending: Accessor<number>;
  busy: Accessor<boolean>;
  verdict: Accessor<ShownVerdict | null>;
  dismissVerdict(): void;
  muted: Accessor<boolean>;
  setMuted(muted: boolean): void;
  eventId: Accessor<number | null>;
  setEventId(id: number): void;
  /** Handles a code from the camera, a wedge scanner or the manual form. */
  scanCode(text: string, source: Exclude<CheckinSource, 'rest' | 'search' | 'walk_in'>): Promise<void>;
  /** Pairs with a code (typed, or from the QR link's fragment), asks for persistent storage, syncs. */
  pair(code: string): Promise<void>;
  /** Unpairs; false (refused) while scans are unsynced. */
  forget(): Promise<boolean>;
  /** Checks in an attendee picked by name search. */
  scanAttendee(attendeeId: number): Promise<void>;
  /** Registers a walk-in and checks them in at once (offline; queued for sync), showing OK. */
  registerWalkIn(person: WalkInPerson): Promise<void>;
}

/** What door staff type for a walk-in (client/door/components/walk-in-form.tsx). */
export interface WalkInPerson {
  displayName: string;
  /** '' when none was given. */
  email: string;
  quantity: number;
}

const EVENT_KEY = 'svc-door-event';

let state: DoorState | undefined;

export function doorState(): DoorState {
  state ??= createRoot(createDoorState);
  return state;
}

function createDoorState(): DoorState {
  const db = openDoorDb();
  const live = createLiveValue(() => db.device.get('self'), undefined as DeviceRecord | undefined);
  const device = () => (live.loading() ? undefined : (live.value() ?? null));
  // the token just paired with, until the live device row catches up with it
  let pairedToken: string | null = null;
  const engine = createSyncEngine({ db, transport: trpcTransport(() => pairedToken ?? live.value()?.token ?? null) });
  const [status, setStatus] = createSignal(engine.status);
  engine.subscribe(setStatus);
  const pending = createLiveValue(() => pendingCount(db), 0).value;
  // The live count answers a moment after each write (and is 0 before its first answer): until it
  // has answered since the last scan was written, its 0 may leave that scan out.
  const [countBehind, setCountBehind] = createSignal(true);
  createComputed(on(pending, () => setCountBehind(false), { defer: true }));
  const [busy, setBusy] = createSignal(false);
  const [verdict, setVerdict] = createSignal<ShownVerdict | null>(null);
  const [muted, setMutedSignal] = createSignal(readMuted());
  const [chosenEvent, setChosenEvent] = createSignal<number | null>(readStoredEvent());
  const sameCode = createSameCodeFilter();
  let seq = 0;
  let chain: Promise<void> = Promise.resolve();

  // an update reloads the page: never while a scan is unsynced (even one the count has not caught
  // up with) or one is being handled — and the outbox itself is counted once more right before it
  setUpdateGate(
    () => pending() === 0 && !countBehind() && !busy(),
    async () => (await pendingCount(db)) === 0 && !busy(),
  );
  engine.start();

  // the attendee index builds beside the first paint; the screen says "loading N attendees" meanwhile
  const [attendeesReady, setAttendeesReady] = createSignal(false);
  const indexStart = performance.now();
  void attendeeIndex(db).then(
    () => {
      // svc-door-index: building the list from IndexedDB; svc-door-ready: page start to scannable (bench: reload-to-ready)
      performance.measure('svc-door-index', { start: indexStart });
      performance.measure('svc-door-ready', { start: 0 });
      setAttendeesReady(true);
      // and again after each sync that brought attendees (the first download)
      let warming = false;
      engine.subscribe((s) => {
        const idx = indexNow(db);
        if (s.phase !== 'idle' || warming || !idx || idx.searchWarm) return;
        warming = true;
        warmSearch(idx, () => (warming = false));
      });
    },
    () => setAttendeesReady(true),
  );

  const eventId = () => {
    const d = device();
    if (!d || d.eventIds.length === 0) return null;
    const chosen = chosenEvent();
    return chosen !== null && d.eventIds.includes(chosen) ? chosen : d.eventIds[0]!;
  };

  /** One scan at a time, so a quick second scan sees the first one's check-in. */
  function serialized(work: () => Promise<void>): Promise<void> {
    chain = chain.then(work, work);
    return chain;
  }

  async function handle(
    key: { codeHash: string } | { attendeeId: number },
    source: Exclude<CheckinSource, 'rest' | 'walk_in'>,
    startedAt: number,
    code: string | null = null,
  ): Promise<void> {
    const d = device();
    const event = eventId();
    if (!d || event === null || d.revokedMs !== null) return;
    setBusy(true);
    try {
      // a code the cached list lacks while it is still downloading: the server, or "still loading" (scan-decision.ts)
      const list = checkinListOf(d);
      const decision = await decideScan(
        db,
        key,
        event,
        d.name,
        { online: isOnline, lookup: (e, hash) => engine.lookup(e, hash) },
        SERVER_LOOKUP_TIMEOUT_MS,
        list,
      );
      performance.measure('svc-door-lookup', { start: startedAt });
      const clientId = crypto.randomUUID();
      const scannedMs = Date.now();
      if (decision.verdict === 'loading') {
        // no verdict: nothing is recorded, staff scan again in a moment
        setVerdict({
          verdict: 'loading',
          progress: decision.progress,
          clientId,
          displayName: '',
          quantity: 0,
          last: null,
          scannedMs,
          seq: ++seq,
          code,
          category: null,
          admits: [],
        });
        playFeedback('loading', muted());
        return;
      }
      const { lookup } = decision;
      setVerdict({
        verdict: lookup.verdict,
        progress: null,
        clientId,
        displayName: lookup.attendee?.displayName ?? '',
        quantity: lookup.attendee?.quantity ?? 0,
        last: lookup.last,
        scannedMs,
        seq: ++seq,
        code,
        category: lookup.attendee ? categoryName(d, lookup.attendee.categoryId) : null,
        admits:
          lookup.verdict === 'wrong_category' && list
            ? (d.categories ?? []).filter((c) => c.eventId === event && list.categoryIds.includes(c.id)).map((c) => c.name)
            : [],
      });
      // Solid has updated the DOM synchronously: the verdict is on screen now
      performance.measure('svc-door-verdict', { start: startedAt });
      playFeedback(lookup.verdict, muted());
      await recordScan(db, { clientId, eventId: event, codeHash: 'codeHash' in key ? key.codeHash : null, lookup, source, scannedMs });
      setCountBehind(true);
      engine.requestSync('scan');
    } finally {
      setBusy(false);
    }
  }

  return {
    db,
    engine,
    status,
    device,
    deviceLoading: live.loading,
    attendeesReady,
    pending,
    busy,
    verdict,
    dismissVerdict: () => setVerdict(null),
    muted,
    setMuted(value) {
      writeMuted(value);
      setMutedSignal(value);
    },
    eventId,
    setEventId(id) {
      try {
        localStorage.setItem(EVENT_KEY, String(id));
      } catch {
        // remembered for this visit only
      }
      setChosenEvent(id);
    },
    async pair(code) {
      const record = await engine.pair(code);
      pairedToken = record.token;
      void requestPersistentStorage();
      void engine.syncNow();
    },
    async forget() {
      const done = await engine.forget();
      if (done) pairedToken = null;
      return done;
    },
    scanCode(text, source) {
      const startedAt = performance.now();
      const code = normalizeTicketCode(text);
      if (!code) return Promise.resolve();
      // one held-up ticket is one scan; a typed code is always meant
      if (source === 'scan' && !sameCode.accept(code)) return Promise.resolve();
      return serialized(async () => handle({ codeHash: await sha256Hex(code) }, source, startedAt, code));
    },
    registerWalkIn(person) {
      return serialized(async () => {
        const d = device();
        const event = eventId();
        if (!d?.walkIns || event === null || d.revokedMs !== null) return;
        setBusy(true);
        try {
          const clientId = crypto.randomUUID();
          const scannedMs = Date.now();
          // written before the verdict shows: a walk-in is typed, not scanned, so there is no hurry to beat
          await recordWalkIn(db, { clientId, attendeeClientId: crypto.randomUUID(), eventId: event, ...person, scannedMs });
          setVerdict({
            verdict: 'ok',
            progress: null,
            clientId,
            displayName: person.displayName.trim(),
            quantity: person.quantity,
            last: null,
            scannedMs,
            seq: ++seq,
            code: null,
            category: null,
            admits: [],
          });
          playFeedback('ok', muted());
          setCountBehind(true);
          engine.requestSync('scan');
        } finally {
          setBusy(false);
        }
      });
    },
    scanAttendee(attendeeId) {
      const startedAt = performance.now();
      return serialized(() => handle({ attendeeId }, 'search', startedAt));
    },
  };
}

/** Makes the name-search text of every attendee in idle time, so the first keystroke finds it made. */
function warmSearch(idx: AttendeeIndex, done: () => void): void {
  const idle = (globalThis as { requestIdleCallback?: (fn: (d: IdleDeadline) => void) => number }).requestIdleCallback;
  const step = (deadline?: IdleDeadline) => {
    let made = idx.warmSearch(500);
    while (!made && deadline && deadline.timeRemaining() > 4) made = idx.warmSearch(500);
    if (made) done();
    else schedule();
  };
  const schedule = () => (idle ? idle(step) : setTimeout(step, 0));
  schedule();
}

function isOnline(): boolean {
  return globalThis.navigator?.onLine ?? true;
}

function readStoredEvent(): number | null {
  try {
    const v = Number(localStorage.getItem(EVENT_KEY));
    return Number.isInteger(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}
