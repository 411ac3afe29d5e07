import { beforeAll, describe, expect, it } from 'vitest';
import { useBundle, useLocale } from '../../client/i18n/i18n';
import { accessState, eventsSummary } from '../../client/admin/users';

const NOW = Date.parse('2030-01-10T12:00:00Z');

// the labels are the admin catalogue's English words
beforeAll(async () => {
  await useLocale('en');
  await useBundle('admin');
});

describe('accessState', () => {
  it('a user without a password and a live link is invited, not yet accepted', () => {
    expect(accessState({ hasPassword: false, inviteExpiresUtc: '2030-01-15 12:00:00' }, NOW)).toEqual({ kind: 'invited', label: 'Invited, not yet accepted' });
  });
  it('a link past its expiry reads expired', () => {
    expect(accessState({ hasPassword: false, inviteExpiresUtc: '2030-01-10 11:59:59' }, NOW).kind).toBe('invite-expired');
  });
  it('no password and no link: no password yet', () => {
    expect(accessState({ hasPassword: false, inviteExpiresUtc: null }, NOW).kind).toBe('no-password');
  });
  it('a user with a password is active; a pending reset link is mentioned', () => {
    expect(accessState({ hasPassword: true, inviteExpiresUtc: null }, NOW).kind).toBe('active');
    expect(accessState({ hasPassword: true, inviteExpiresUtc: '2030-01-11 00:00:00' }, NOW).kind).toBe('reset-sent');
    expect(accessState({ hasPassword: true, inviteExpiresUtc: '2030-01-01 00:00:00' }, NOW).kind).toBe('active');
  });
});

describe('eventsSummary', () => {
  const titles = new Map([
    [1, 'Summer party'],
    [2, 'Gala'],
  ]);
  it('staff: all events, none, or the titles in their order; unknown ids by number', () => {
    expect(eventsSummary({ role: 'staff', eventIds: null }, titles)).toBe('All events');
    expect(eventsSummary({ role: 'staff', eventIds: [] }, titles)).toBe('None');
    expect(eventsSummary({ role: 'staff', eventIds: [2, 1, 9] }, titles)).toBe('Gala, Summer party, Event #9');
  });
  it('other roles are not limited by events', () => {
    expect(eventsSummary({ role: 'administrator', eventIds: [1] }, titles)).toBe('Not limited');
    expect(eventsSummary({ role: 'host', eventIds: null }, titles)).toBe('Not limited');
  });
});
