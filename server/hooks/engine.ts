/**
 * The hook engine (docs/api.md#plugins, decision 004): WordPress-style actions and filters
 * with priorities, accepted-argument counts and one shared namespace.
 *
 * Behaviour that the contract leaves open, decided here:
 * - A fire works on the callback list as it was when the fire started: callbacks added
 *   or removed meanwhile (by a running callback or by a concurrent fire) count from the
 *   next fire. With async callbacks a live list would make the outcome depend on timing.
 * - Adding the same callback twice at the same priority keeps one registration in its
 *   original place and updates its accepted-argument count (as WordPress does), so one
 *   removeAction always undoes it. At different priorities it is registered twice.
 * - didAction counts a fire when it starts, even if a callback then throws.
 */
import { catalogueKindOf, type ActionArgs, type ActionHookName, type FilterArgs, type FilterHookName, type FilterReturn, type HookKind } from './catalogue';
import { PRIORITY_DEFAULT } from './priorities';

/** Contract intro: "an accepted-argument count (default 1)". */
export const DEFAULT_ACCEPTED_ARGS = 1;

type DefaultAcceptedArgs = typeof DEFAULT_ACCEPTED_ARGS;

/**
 * The first `Count` elements of the tuple `Args`, labels kept. A non-literal count or
 * an open-ended tuple (a plugin's own hook) gives the whole tuple.
 */
export type FirstArgs<Args extends readonly unknown[], Count extends number> = number extends Count
  ? Args
  : number extends Args['length']
    ? Args
    : `${Count}` extends keyof Args
      ? Args extends readonly [...infer Shorter, unknown]
        ? FirstArgs<Shorter, Count>
        : Args
      : Args;

/** What a callback registered with `acceptedArgs = Accepted` for an action receives. */
export type ActionCallback<Name extends string, Accepted extends number = DefaultAcceptedArgs> = (...args: FirstArgs<ActionArgs<Name>, Accepted>) => unknown;

/** A filter callback: receives the value (and up to Accepted - 1 extra args), returns the value. */
export type FilterCallback<Name extends string, Accepted extends number = DefaultAcceptedArgs> = (
  ...args: FirstArgs<FilterArgs<Name>, Accepted>
) => FilterReturn<Name> | Promise<FilterReturn<Name>>;

/** Any callback, for removal and look-up where only identity matters. */
export type RegisteredCallback = (...args: never[]) => unknown;

type StoredCallback = (...args: unknown[]) => unknown;

interface Registration {
  readonly callback: StoredCallback;
  readonly priority: number;
  readonly acceptedArgs: number;
}

interface HookState {
  readonly kind: HookKind;
  /**
   * Sorted by priority, then registration order. Replaced, never mutated, so a fire
   * in progress keeps the list it started with.
   */
  registrations: readonly Registration[];
  fired: number;
}

export class Hooks {
  readonly #hooks = new Map<string, HookState>();

  addAction<Name extends string, Accepted extends number = DefaultAcceptedArgs>(
    name: ActionHookName<Name>,
    callback: ActionCallback<Name, Accepted>,
    priority: number = PRIORITY_DEFAULT,
    acceptedArgs?: Accepted,
  ): void {
    this.#register('action', 'addAction', name, callback, priority, acceptedArgs ?? DEFAULT_ACCEPTED_ARGS);
  }

  addFilter<Name extends string, Accepted extends number = DefaultAcceptedArgs>(
    name: FilterHookName<Name>,
    callback: FilterCallback<Name, Accepted>,
    priority: number = PRIORITY_DEFAULT,
    acceptedArgs?: Accepted,
  ): void {
    this.#register('filter', 'addFilter', name, callback, priority, acceptedArgs ?? DEFAULT_ACCEPTED_ARGS);
  }

  /** Removes the callback registered at exactly this priority; false when there was none. */
  removeAction<Name extends string>(name: ActionHookName<Name>, callback: RegisteredCallback, priority: number = PRIORITY_DEFAULT): boolean {
    return this.#remove('action', 'removeAction', name, callback, priority);
  }

  removeFilter<Name extends string>(name: FilterHookName<Name>, callback: RegisteredCallback, priority: number = PRIORITY_DEFAULT): boolean {
    return this.#remove('filter', 'removeFilter', name, callback, priority);
  }

  /** Without a callback: whether anything listens. With one: whether it is registered at any priority. */
  hasAction<Name extends string>(name: ActionHookName<Name>, callback?: RegisteredCallback): boolean {
    return this.#has('action', 'hasAction', name, callback);
  }

  hasFilter<Name extends string>(name: FilterHookName<Name>, callback?: RegisteredCallback): boolean {
    return this.#has('filter', 'hasFilter', name, callback);
  }

  /** How many times doAction has run for this hook. */
  didAction<Name extends string>(name: ActionHookName<Name>): number {
    return this.#existing('action', 'didAction', name)?.fired ?? 0;
  }

  /** Runs the action's callbacks one after another in priority order, awaiting each. */
  async doAction<Name extends string>(name: ActionHookName<Name>, ...args: ActionArgs<Name>): Promise<void> {
    const state = this.#claim('action', 'doAction', name);
    state.fired += 1;
    for (const { callback, acceptedArgs } of state.registrations) {
      await callback(...args.slice(0, acceptedArgs));
    }
  }

  /**
   * Passes the value through the filter's callbacks in priority order; each receives
   * the previous one's result. Returns the input unchanged when nothing listens.
   */
  applyFilters<Name extends string>(name: FilterHookName<Name>, ...valueAndArgs: FilterArgs<Name>): Promise<FilterReturn<Name>>;
  async applyFilters(name: string, value: unknown, ...args: unknown[]): Promise<unknown> {
    const state = this.#claim('filter', 'applyFilters', name);
    let current = value;
    for (const { callback, acceptedArgs } of state.registrations) {
      current = await callback(...[current, ...args].slice(0, acceptedArgs));
    }
    return current;
  }

  #register(kind: HookKind, method: string, name: string, callback: unknown, priority: number, acceptedArgs: number): void {
    if (typeof callback !== 'function') {
      throw new TypeError(`${method}("${name}"): the callback must be a function.`);
    }
    if (typeof priority !== 'number' || Number.isNaN(priority)) {
      throw new TypeError(`${method}("${name}"): the priority must be a number.`);
    }
    if (!Number.isInteger(acceptedArgs) || acceptedArgs < 0) {
      throw new TypeError(`${method}("${name}"): acceptedArgs must be a whole number of at least 0.`);
    }
    const state = this.#claim(kind, method, name);
    const registration: Registration = { callback: callback as StoredCallback, priority, acceptedArgs };
    const current = state.registrations;
    const same = current.findIndex((r) => r.callback === callback && r.priority === priority);
    if (same !== -1) {
      state.registrations = current.map((r, i) => (i === same ? registration : r));
      return;
    }
    const firstLater = current.findIndex((r) => r.priority > priority);
    const at = firstLater === -1 ? current.length : firstLater;
    state.registrations = [...current.slice(0, at), registration, ...current.slice(at)];
  }

  #remove(kind: HookKind, method: string, name: string, callback: RegisteredCallback, priority: number): boolean {
    const state = this.#existing(kind, method, name);
    if (!state) return false;
    const remaining = state.registrations.filter((r) => !(r.callback === callback && r.priority === priority));
    if (remaining.length === state.registrations.length) return false;
    state.registrations = remaining;
    return true;
  }

  #has(kind: HookKind, method: string, name: string, callback: RegisteredCallback | undefined): boolean {
    const registrations = this.#existing(kind, method, name)?.registrations ?? [];
    return callback === undefined ? registrations.length > 0 : registrations.some((r) => r.callback === callback);
  }

  /** The hook's state, creating it (and so fixing a plugin hook's kind) on first use. */
  #claim(kind: HookKind, method: string, name: string): HookState {
    const existing = this.#existing(kind, method, name);
    if (existing) return existing;
    const created: HookState = { kind, registrations: [], fired: 0 };
    this.#hooks.set(name, created);
    return created;
  }

  /** The hook's state if any; throws when the name is known as the other kind. */
  #existing(kind: HookKind, method: string, name: string): HookState | undefined {
    const state = this.#hooks.get(name);
    const knownKind = catalogueKindOf(name) ?? state?.kind;
    if (knownKind !== undefined && knownKind !== kind) {
      throw new Error(
        `Hook "${name}" is ${knownKind === 'action' ? 'an action' : 'a filter'}, so ${method} cannot use it: actions and filters share one namespace.`,
      );
    }
    return state;
  }
}
