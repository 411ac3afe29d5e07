import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldProblems, plainFieldMessage, plainSummary } from '../../client/ui/forms';
import { useLocale } from '../../client/i18n/i18n';
import { maxSeats, seatsOverflowWaitlist } from '../../client/visitor/form-fields';

describe('the server’s refusals in plain words (client/ui/forms.ts)', () => {
  beforeAll(() => useLocale('en'));
  it('a refused email, on any visitor form, asks to check it with an example', () => {
    for (const field of ['email', 'customerEmail', 'submitterEmail']) {
      expect(plainFieldMessage(field, 'must be a valid email address')).toBe('Check the email address, e.g. name@example.com.');
    }
    expect(plainFieldMessage('email', 'Too big: expected string to have <=254 characters')).toBe('The email address is too long.');
  });

  it('seats name the allowed range; other reasons are kept as a sentence', () => {
    expect(plainFieldMessage('quantity', 'must be at most 4')).toBe('Choose from 1 to 4 seats.');
    expect(plainFieldMessage('svc_cf_diet', 'must be one of the options')).toBe('Must be one of the options.');
  });

  it('maps data.params to the form’s own field keys, and a summary that only lists field names becomes a sentence', () => {
    expect(fieldProblems({ submitterEmail: 'must be a valid email address' }, { submitterEmail: 'email' })).toEqual({
      email: 'Check the email address, e.g. name@example.com.',
    });
    expect(plainSummary('Invalid parameter(s): email', 1)).toBe('Please check the marked field:');
    expect(plainSummary('This event is full.', 0)).toBe('This event is full.');
  });

  describe('in the reader’s language', () => {
    beforeAll(() => useLocale('de'));
    afterAll(() => useLocale('en'));

    it('says the plain words in German for a German reader, and counts the marked fields with German plurals', () => {
      expect(plainFieldMessage('email', 'must be a valid email address')).toBe('Prüfen Sie die E-Mail-Adresse, z. B. name@example.com.');
      expect(plainFieldMessage('quantity', 'must be at most 4')).toBe('Wählen Sie 1 bis 4 Plätze.');
      expect(plainSummary('Invalid parameter(s): email, display_name', 2)).toBe('Bitte prüfen Sie die markierten Felder:');
    });
  });
});

describe('seats against the places left (client/visitor/form-fields.ts)', () => {
  it('without a waitlist, a sign-up may ask for no more than the places left', () => {
    expect(maxSeats({ maxPerSignup: 10, placesLeft: 2, waitlist: false })).toBe(2);
    expect(maxSeats({ maxPerSignup: 10, placesLeft: null, waitlist: false })).toBe(10);
  });

  it('with a waitlist, more may be asked for, and the form is told those go on the waitlist', () => {
    const event = { maxPerSignup: 10, placesLeft: 2, waitlist: true };
    expect(maxSeats(event)).toBe(10);
    expect(seatsOverflowWaitlist(2, event)).toBe(false);
    expect(seatsOverflowWaitlist(3, event)).toBe(true);
    expect(seatsOverflowWaitlist(3, { ...event, placesLeft: null })).toBe(false);
  });
});
