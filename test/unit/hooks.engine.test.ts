import { describe, expect, it } from 'vitest';
import { Hooks } from '../../server/hooks';

/** Resolves after a macrotask, so a callback that forgets to be awaited loses the race. */
const nextTick = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

describe('priority and order', () => {
  it('runs callbacks with a lower priority number first', async () => {
    const hooks = new Hooks();
    const ran: string[] = [];
    hooks.addAction('plugin_order', () => ran.push('30'), 30);
    hooks.addAction('plugin_order', () => ran.push('5'), 5);
    hooks.addAction('plugin_order', () => ran.push('20'), 20);
    await hooks.doAction('plugin_order');
    expect(ran).toEqual(['5', '20', '30']);
  });

  it('runs callbacks of one priority in registration order', async () => {
    const hooks = new Hooks();
    const ran: string[] = [];
    for (const label of ['a', 'b', 'c', 'd']) hooks.addAction('plugin_order', () => ran.push(label), 10);
    hooks.addAction('plugin_order', () => ran.push('early'), 1);
    await hooks.doAction('plugin_order');
    expect(ran).toEqual(['early', 'a', 'b', 'c', 'd']);
  });

  it('gives a callback registered without a priority the priority 10', async () => {
    const hooks = new Hooks();
    const ran: string[] = [];
    hooks.addAction('plugin_order', () => ran.push('11'), 11);
    hooks.addAction('plugin_order', () => ran.push('default'));
    hooks.addAction('plugin_order', () => ran.push('explicit 10'), 10);
    hooks.addAction('plugin_order', () => ran.push('9'), 9);
    await hooks.doAction('plugin_order');
    expect(ran).toEqual(['9', 'default', 'explicit 10', '11']);
  });

  it('accepts negative and fractional priorities in numeric order', async () => {
    const hooks = new Hooks();
    const ran: number[] = [];
    for (const priority of [10, -5, 10.5, 0]) hooks.addAction('plugin_order', () => ran.push(priority), priority);
    await hooks.doAction('plugin_order');
    expect(ran).toEqual([-5, 0, 10, 10.5]);
  });
});

describe('accepted arguments', () => {
  it('a callback registered with the default acceptedArgs receives only the first argument', async () => {
    const hooks = new Hooks();
    let received: unknown[] = [];
    hooks.addAction('plugin_args', (...args: unknown[]) => {
      received = args;
    });
    await hooks.doAction('plugin_args', 1, 'two', 3);
    expect(received).toEqual([1]);
  });

  it('a callback registered with acceptedArgs 3 receives the first three of the contract arguments', async () => {
    const hooks = new Hooks();
    let received: unknown[] = [];
    hooks.addAction(
      'svc_attendee_status_changed',
      (id: number, next: string, old: string) => {
        received = [id, next, old];
      },
      10,
      3,
    );
    await hooks.doAction('svc_attendee_status_changed', 7, 'going', 'waitlist');
    expect(received).toEqual([7, 'going', 'waitlist']);
  });

  it('drops the arguments beyond acceptedArgs', async () => {
    const hooks = new Hooks();
    let received: unknown[] = [];
    hooks.addAction('plugin_args', (...args: unknown[]) => (received = args), 10, 2);
    await hooks.doAction('plugin_args', 'a', 'b', 'c', 'd');
    expect(received).toEqual(['a', 'b']);
  });

  it('never pads when acceptedArgs is larger than what the hook passes', async () => {
    const hooks = new Hooks();
    let received: unknown[] = ['untouched'];
    hooks.addAction('plugin_args', (...args: unknown[]) => (received = args), 10, 5);
    await hooks.doAction('plugin_args', 'only');
    expect(received).toHaveLength(1);
    expect(received).toEqual(['only']);
  });

  it('a callback registered with acceptedArgs 0 receives no arguments', async () => {
    const hooks = new Hooks();
    let received: unknown[] = ['untouched'];
    hooks.addAction('plugin_args', (...args: unknown[]) => (received = args), 10, 0);
    await hooks.doAction('plugin_args', 'a');
    expect(received).toEqual([]);
  });

  it('counts the filtered value as the first argument of a filter callback', async () => {
    const hooks = new Hooks();
    const seen: unknown[][] = [];
    hooks.addFilter('svc_booking_slots', (...args: unknown[]) => {
      seen.push(args);
      return [];
    });
    hooks.addFilter(
      'svc_booking_slots',
      (...args: unknown[]) => {
        seen.push(args);
        return [];
      },
      20,
      4,
    );
    await hooks.applyFilters('svc_booking_slots', [], 3, '2026-11-21', '2026-11-22');
    expect(seen).toEqual([[[]], [[], 3, '2026-11-21', '2026-11-22']]);
  });

  it('refuses an acceptedArgs that is not a whole number of at least 0', () => {
    const hooks = new Hooks();
    expect(() => hooks.addAction('plugin_args', () => {}, 10, -1)).toThrow(TypeError);
    expect(() => hooks.addAction('plugin_args', () => {}, 10, 1.5)).toThrow(/acceptedArgs/);
  });
});

describe('one namespace for actions and filters', () => {
  it('refuses to register a filter under a catalogue action name, naming the hook', () => {
    const hooks = new Hooks();
    // @ts-expect-error svc_rsvp_submitted is an action, so the compiler refuses it as a filter too
    expect(() => hooks.addFilter('svc_rsvp_submitted', (value: unknown) => value)).toThrow(/"svc_rsvp_submitted" is an action/);
  });

  it('refuses to register an action under a catalogue filter name, naming the hook', () => {
    const hooks = new Hooks();
    // @ts-expect-error svc_currency is a filter
    expect(() => hooks.addAction('svc_currency', () => {})).toThrow(/"svc_currency" is a filter/);
  });

  it('refuses doAction on a filter name and applyFilters on an action name', async () => {
    const hooks = new Hooks();
    // @ts-expect-error svc_slot_cache_ttl is a filter
    await expect(hooks.doAction('svc_slot_cache_ttl', 300)).rejects.toThrow(/"svc_slot_cache_ttl" is a filter/);
    // @ts-expect-error svc_booking_paid is an action
    await expect(hooks.applyFilters('svc_booking_paid', 1)).rejects.toThrow(/"svc_booking_paid" is an action/);
  });

  it("fixes a plugin hook's kind at its first registration", () => {
    const hooks = new Hooks();
    hooks.addAction('plugin_registered_first', () => {});
    expect(() => hooks.addFilter('plugin_registered_first', (value: unknown) => value)).toThrow(/"plugin_registered_first" is an action/);
  });

  it("fixes a plugin hook's kind at its first fire, even with no callbacks", async () => {
    const hooks = new Hooks();
    await expect(hooks.applyFilters('plugin_fired_first', 'value')).resolves.toBe('value');
    expect(() => hooks.addAction('plugin_fired_first', () => {})).toThrow(/"plugin_fired_first" is a filter/);
    await expect(hooks.doAction('plugin_fired_first')).rejects.toThrow(/is a filter/);
  });

  it('refuses has, remove and didAction of the other kind', () => {
    const hooks = new Hooks();
    // @ts-expect-error svc_booking_confirmed is an action
    expect(() => hooks.hasFilter('svc_booking_confirmed')).toThrow(/is an action/);
    // @ts-expect-error svc_currency is a filter
    expect(() => hooks.removeAction('svc_currency', () => {})).toThrow(/is a filter/);
    // @ts-expect-error svc_currency is a filter
    expect(() => hooks.didAction('svc_currency')).toThrow(/is a filter/);
  });

  it('does not fix a plugin hook kind by merely asking about it', () => {
    const hooks = new Hooks();
    expect(hooks.hasAction('plugin_asked')).toBe(false);
    expect(() => hooks.addFilter('plugin_asked', (value: unknown) => value)).not.toThrow();
  });
});

describe('async callbacks and errors', () => {
  it('awaits each callback before starting the next, in priority order', async () => {
    const hooks = new Hooks();
    const ran: string[] = [];
    hooks.addAction('plugin_async', async () => {
      await nextTick();
      ran.push('slow first');
    });
    hooks.addAction('plugin_async', () => ran.push('sync second'), 20);
    await hooks.doAction('plugin_async');
    expect(ran).toEqual(['slow first', 'sync second']);
  });

  it('resolves doAction only after the last async callback has finished', async () => {
    const hooks = new Hooks();
    let finished = false;
    hooks.addAction('plugin_async', async () => {
      await nextTick();
      finished = true;
    });
    await hooks.doAction('plugin_async');
    expect(finished).toBe(true);
  });

  it('awaits async filter callbacks and passes the resolved value along', async () => {
    const hooks = new Hooks();
    hooks.addFilter('svc_slot_cache_ttl', async (ttl) => {
      await nextTick();
      return ttl * 2;
    });
    hooks.addFilter('svc_slot_cache_ttl', (ttl) => ttl + 1, 20);
    await expect(hooks.applyFilters('svc_slot_cache_ttl', 300)).resolves.toBe(601);
  });

  it('a throwing action callback stops the rest and the error reaches the caller', async () => {
    const hooks = new Hooks();
    const ran: string[] = [];
    const failure = new Error('email provider down');
    hooks.addAction('svc_booking_cancelled', () => ran.push('before'), 5);
    hooks.addAction('svc_booking_cancelled', () => {
      throw failure;
    });
    hooks.addAction('svc_booking_cancelled', () => ran.push('after'), 20);
    await expect(hooks.doAction('svc_booking_cancelled', 1)).rejects.toBe(failure);
    expect(ran).toEqual(['before']);
  });

  it('a rejecting async filter callback stops the chain and the error reaches the caller', async () => {
    const hooks = new Hooks();
    let laterRan = false;
    hooks.addFilter('svc_currency', async () => {
      throw new Error('settings unreadable');
    });
    hooks.addFilter(
      'svc_currency',
      (code) => {
        laterRan = true;
        return code;
      },
      20,
    );
    await expect(hooks.applyFilters('svc_currency', 'USD')).rejects.toThrow('settings unreadable');
    expect(laterRan).toBe(false);
  });
});

describe('filter chain', () => {
  it('passes each callback the previous result and returns the last one', async () => {
    const hooks = new Hooks();
    hooks.addFilter('svc_rsvp_form_fields', (html) => `${html}<b>`, 20);
    hooks.addFilter('svc_rsvp_form_fields', (html) => `${html}<a>`);
    hooks.addFilter('svc_rsvp_form_fields', (html, eventId) => `${html}<c data-event="${eventId}">`, 30, 2);
    await expect(hooks.applyFilters('svc_rsvp_form_fields', '', 42)).resolves.toBe('<a><b><c data-event="42">');
  });

  it('returns the value unchanged when nothing listens', async () => {
    const hooks = new Hooks();
    const labels = { in_person: 'In person' };
    await expect(hooks.applyFilters('svc_booking_location_labels', labels)).resolves.toBe(labels);
  });
});

describe('remove and has', () => {
  it('removes a callback so it no longer runs, answering true', async () => {
    const hooks = new Hooks();
    const ran: string[] = [];
    const listener = () => ran.push('listener');
    hooks.addAction('svc_rsvp_cancelled', listener);
    expect(hooks.removeAction('svc_rsvp_cancelled', listener)).toBe(true);
    await hooks.doAction('svc_rsvp_cancelled', 3);
    expect(ran).toEqual([]);
  });

  it('answers false when the callback is not registered at that priority, and keeps it', async () => {
    const hooks = new Hooks();
    let ran = false;
    const listener = () => {
      ran = true;
    };
    hooks.addAction('svc_rsvp_cancelled', listener, 20);
    expect(hooks.removeAction('svc_rsvp_cancelled', listener)).toBe(false);
    expect(hooks.removeAction('svc_rsvp_cancelled', () => {}, 20)).toBe(false);
    expect(hooks.removeAction('plugin_never_used', listener)).toBe(false);
    await hooks.doAction('svc_rsvp_cancelled', 3);
    expect(ran).toBe(true);
  });

  it('removes a filter callback at its own priority', async () => {
    const hooks = new Hooks();
    const double = (ttl: number) => ttl * 2;
    hooks.addFilter('svc_slot_cache_ttl', double, 30);
    expect(hooks.removeFilter('svc_slot_cache_ttl', double, 30)).toBe(true);
    await expect(hooks.applyFilters('svc_slot_cache_ttl', 300)).resolves.toBe(300);
  });

  it('tells whether anything listens, or whether one callback does', () => {
    const hooks = new Hooks();
    const listener = () => {};
    expect(hooks.hasAction('svc_booking_paid')).toBe(false);
    hooks.addAction('svc_booking_paid', listener, 50);
    expect(hooks.hasAction('svc_booking_paid')).toBe(true);
    expect(hooks.hasAction('svc_booking_paid', listener)).toBe(true);
    expect(hooks.hasAction('svc_booking_paid', () => {})).toBe(false);
    hooks.removeAction('svc_booking_paid', listener, 50);
    expect(hooks.hasAction('svc_booking_paid')).toBe(false);

    const upper = (code: string) => code.toUpperCase();
    expect(hooks.hasFilter('svc_currency', upper)).toBe(false);
    hooks.addFilter('svc_currency', upper);
    expect(hooks.hasFilter('svc_currency', upper)).toBe(true);
  });

  it('keeps one registration when the same callback is added twice at one priority', async () => {
    const hooks = new Hooks();
    const received: unknown[][] = [];
    const listener = (...args: unknown[]) => received.push(args);
    hooks.addAction('plugin_twice', listener);
    hooks.addAction('plugin_twice', listener, 10, 2);
    await hooks.doAction('plugin_twice', 'a', 'b');
    expect(received).toEqual([['a', 'b']]);
    expect(hooks.removeAction('plugin_twice', listener)).toBe(true);
    expect(hooks.hasAction('plugin_twice')).toBe(false);
  });

  it('runs the same callback once per priority it was added at', async () => {
    const hooks = new Hooks();
    let runs = 0;
    const listener = () => runs++;
    hooks.addAction('plugin_twice', listener, 10);
    hooks.addAction('plugin_twice', listener, 20);
    await hooks.doAction('plugin_twice');
    expect(runs).toBe(2);
  });
});

describe('didAction', () => {
  it('counts how many times doAction ran for a hook, with or without listeners', async () => {
    const hooks = new Hooks();
    expect(hooks.didAction('svc_booking_confirmed')).toBe(0);
    await hooks.doAction('svc_booking_confirmed', 1);
    await hooks.doAction('svc_booking_confirmed', 2);
    hooks.addAction('svc_booking_confirmed', () => {});
    await hooks.doAction('svc_booking_confirmed', 3);
    expect(hooks.didAction('svc_booking_confirmed')).toBe(3);
    expect(hooks.didAction('svc_booking_paid')).toBe(0);
  });

  it('counts a fire whose callback threw', async () => {
    const hooks = new Hooks();
    hooks.addAction('svc_booking_declined', () => {
      throw new Error('boom');
    });
    await expect(hooks.doAction('svc_booking_declined', 1)).rejects.toThrow('boom');
    expect(hooks.didAction('svc_booking_declined')).toBe(1);
  });
});

describe('changes while a hook runs', () => {
  it('a callback added during a fire, even at a later priority, runs from the next fire', async () => {
    const hooks = new Hooks();
    const ran: string[] = [];
    const late = () => ran.push('late');
    hooks.addAction('plugin_live', () => {
      ran.push('adder');
      if (!hooks.hasAction('plugin_live', late)) hooks.addAction('plugin_live', late, 20);
    });
    await hooks.doAction('plugin_live');
    expect(ran).toEqual(['adder']);
    await hooks.doAction('plugin_live');
    expect(ran).toEqual(['adder', 'adder', 'late']);
  });

  it('a callback removed during a fire still runs in that fire and not in the next', async () => {
    const hooks = new Hooks();
    const ran: string[] = [];
    const victim = () => ran.push('victim');
    hooks.addAction('plugin_live', () => {
      ran.push('remover');
      hooks.removeAction('plugin_live', victim, 20);
    });
    hooks.addAction('plugin_live', victim, 20);
    await hooks.doAction('plugin_live');
    await hooks.doAction('plugin_live');
    expect(ran).toEqual(['remover', 'victim', 'remover']);
  });

  it('a fire of the same hook from inside a callback runs the full list', async () => {
    const hooks = new Hooks();
    const ran: string[] = [];
    hooks.addAction('plugin_nested', async (depth) => {
      ran.push(`outer ${String(depth)}`);
      if (depth === 0) await hooks.doAction('plugin_nested', 1);
    });
    hooks.addAction('plugin_nested', (depth) => ran.push(`second ${String(depth)}`), 20);
    await hooks.doAction('plugin_nested', 0);
    expect(ran).toEqual(['outer 0', 'outer 1', 'second 1', 'second 0']);
  });
});

describe('registration checks', () => {
  it('refuses a callback that is not a function and a priority that is not a number', () => {
    const hooks = new Hooks();
    expect(() => hooks.addAction('plugin_bad', 'not a function' as never)).toThrow(/plugin_bad.*must be a function/);
    expect(() => hooks.addFilter('plugin_bad_filter', (v: unknown) => v, Number.NaN)).toThrow(/priority/);
  });
});

describe('types follow the catalogue', () => {
  // These lines only need to compile (or fail to compile where marked); they never fire.
  it('accepts contract-shaped callbacks and rejects wrong ones at compile time', () => {
    const hooks = new Hooks();
    hooks.addAction('svc_attendee_status_changed', (id: number, next: string, old: string) => [id, next, old], 10, 3);
    hooks.addAction('svc_rsvp_submitted', (id, data) => data.cancel_token.length + id, 10, 2);
    hooks.addFilter('svc_booking_assignment_strategy', (strategy, assignment) => (assignment === 'fixed' ? strategy : { pick: () => 0 }), 10, 2);
    hooks.addAction('plugin_own_hook', (a, b) => [a, b], 10, 2);

    // @ts-expect-error newStatus is a string, not a number
    hooks.addAction('svc_attendee_status_changed', (id: number, next: number) => [id, next], 10, 3);
    // @ts-expect-error with the default acceptedArgs of 1 the callback would never get `next`
    hooks.addAction('svc_attendee_status_changed', (id: number, next: string) => [id, next]);
    // @ts-expect-error svc_currency returns a string
    hooks.addFilter('svc_currency', () => 42);
    // @ts-expect-error svc_booking_rescheduled passes (id, oldStart, newStart)
    void hooks.doAction('svc_booking_rescheduled', 1, '2026-11-21 09:00:00');
    // @ts-expect-error the slot list is an array of Slot objects
    void hooks.applyFilters('svc_booking_slots', 'not a list', 1, '', '');

    expect(hooks.hasAction('svc_attendee_status_changed')).toBe(true);
  });

  it('types the result of applyFilters by the catalogue', async () => {
    const hooks = new Hooks();
    const ttl: number = await hooks.applyFilters('svc_slot_cache_ttl', 300);
    // @ts-expect-error svc_currency resolves to a string
    const wrong: number = await hooks.applyFilters('svc_currency', 'USD');
    expect([ttl, wrong]).toEqual([300, 'USD']);
  });
});
