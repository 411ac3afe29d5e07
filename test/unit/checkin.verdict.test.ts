import { describe, expect, it } from 'vitest';
import { checkinVerdict, countsAsCheckedIn, isAdmitted, listAdmits } from '../../shared/checkin';

const going = { eventId: 1, status: 'going', checkinCount: 0 };

describe('checkinVerdict (the rule the door runs offline and the server online)', () => {
  it('ok for a going attendee of this event not yet checked in', () => expect(checkinVerdict(going, 1)).toBe('ok'));
  it('again once checked in', () => expect(checkinVerdict({ ...going, checkinCount: 2 }, 1)).toBe('again'));
  it('an empty status on an old row reads as going (docs/api.md#errors)', () => expect(checkinVerdict({ ...going, status: '' }, 1)).toBe('ok'));
  it('unknown without an attendee', () => expect(checkinVerdict(null, 1)).toBe('unknown'));
  it('wrong_event before any status', () => expect(checkinVerdict({ ...going, status: 'cancelled', eventId: 2 }, 1)).toBe('wrong_event'));
  it('cancelled, even when checked in before', () => expect(checkinVerdict({ ...going, status: 'cancelled', checkinCount: 1 }, 1)).toBe('cancelled'));
  it('waitlist', () => expect(checkinVerdict({ ...going, status: 'waitlist' }, 1)).toBe('waitlist'));
  it('a status the door does not understand is refused like cancelled', () => expect(checkinVerdict({ ...going, status: 'pending' }, 1)).toBe('cancelled'));
  it('only ok and again admit', () => {
    expect(['ok', 'again', 'cancelled', 'waitlist', 'wrong_event', 'unknown', 'wrong_category'].filter((v) => isAdmitted(v as never))).toEqual(['ok', 'again']);
  });
});

describe('a check-in list (docs/decisions/029-check-in-lists.md)', () => {
  const vipOnly = { categoryIds: [7], eventIds: [1] };
  it('admits a ticket of a listed category, first entry and re-entry', () => {
    expect(checkinVerdict({ ...going, categoryId: 7 }, 1, vipOnly)).toBe('ok');
    expect(checkinVerdict({ ...going, categoryId: 7, checkinCount: 1 }, 1, vipOnly)).toBe('again');
  });
  it('refuses another category as wrong_category, also one already checked in elsewhere', () => {
    expect(checkinVerdict({ ...going, categoryId: 8 }, 1, vipOnly)).toBe('wrong_category');
    expect(checkinVerdict({ ...going, categoryId: 8, checkinCount: 1 }, 1, vipOnly)).toBe('wrong_category');
  });
  it('refuses a ticket without a category at an event the list limits', () => {
    expect(checkinVerdict({ ...going, categoryId: null }, 1, vipOnly)).toBe('wrong_category');
    expect(checkinVerdict(going, 1, vipOnly)).toBe('wrong_category');
  });
  it('the ticket’s own refusals come first: wrong event, waitlist, cancelled', () => {
    expect(checkinVerdict({ ...going, categoryId: 8, eventId: 2 }, 1, vipOnly)).toBe('wrong_event');
    expect(checkinVerdict({ ...going, categoryId: 8, status: 'waitlist' }, 1, vipOnly)).toBe('waitlist');
    expect(checkinVerdict({ ...going, categoryId: 8, status: 'cancelled' }, 1, vipOnly)).toBe('cancelled');
  });
  it('limits only the events of its categories; no list admits every category', () => {
    expect(listAdmits(vipOnly, 2, 9)).toBe(true);
    expect(listAdmits(vipOnly, 2, null)).toBe(true);
    expect(checkinVerdict({ ...going, categoryId: 8 }, 1, null)).toBe('ok');
    expect(checkinVerdict({ ...going, categoryId: 8 }, 1)).toBe('ok');
  });
});

describe('countsAsCheckedIn (the server’s "checked in" and the door’s alike)', () => {
  it('a going attendee (or the old empty status) with a check-in not annulled', () => {
    expect(countsAsCheckedIn({ status: 'going', checkinCount: 1 })).toBe(true);
    expect(countsAsCheckedIn({ status: '', checkinCount: 2 })).toBe(true);
    expect(countsAsCheckedIn({ status: 'going', checkinCount: 0 })).toBe(false);
  });
  it('not someone cancelled or waitlisted, whatever their check-ins (a forced offline scan is reviewed, not counted)', () => {
    expect(countsAsCheckedIn({ status: 'cancelled', checkinCount: 1 })).toBe(false);
    expect(countsAsCheckedIn({ status: 'waitlist', checkinCount: 1 })).toBe(false);
  });
});
