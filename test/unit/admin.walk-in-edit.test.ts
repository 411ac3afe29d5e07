/** The admin's attendee edit copes with a walk-in registered at the door without an email (stored as ''). */
import { describe, expect, it } from 'vitest';
import { attendeeDraftErrors, attendeePatch } from '../../client/admin/attendee-edit';

const walkIn = { displayName: 'Wanda Walkin', email: '', quantity: 1, status: 'going' };
const draft = (over: Partial<{ displayName: string; email: string; quantity: string; status: string }> = {}) => ({
  displayName: walkIn.displayName,
  email: '',
  quantity: '1',
  status: 'going',
  ...over,
});

describe('editing a walk-in without an email', () => {
  it('renaming it needs no email, and the PATCH leaves the email out', () => {
    expect(attendeeDraftErrors(draft({ displayName: 'Wanda W.' }), walkIn.email)).toEqual({});
    expect(attendeePatch(walkIn, draft({ displayName: 'Wanda W.' }))).toEqual({ displayName: 'Wanda W.' });
  });

  it('an attendee who had an email may not be left without one', () => {
    expect(attendeeDraftErrors(draft(), 'had@example.test').email).toBeDefined();
  });
});
