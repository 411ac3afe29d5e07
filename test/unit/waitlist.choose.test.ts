/** Which waitlisted parties move up (docs/decisions/045-waitlist-promotion.md): oldest first, whole, a party too big skipped. */
import { describe, expect, it } from 'vitest';
import { choosePromotions } from '../../server/modules/attendees/waitlist.service';

const w = (id: number, quantity: number, ticketCategoryId: number | null = null) => ({ id, quantity, ticketCategoryId });

describe('choosePromotions', () => {
  it('takes parties in order while they fit, skipping one too big for the seats left instead of waiting for it', () => {
    expect(choosePromotions([w(1, 3), w(2, 1), w(3, 1), w(4, 1)], 2, new Map())).toEqual([2, 3]);
  });

  it('moves a party only whole: 1 seat left never splits a party of 2', () => {
    expect(choosePromotions([w(1, 2), w(2, 2)], 1, new Map())).toEqual([]);
  });

  it('without a capacity every waiting party moves up', () => {
    expect(choosePromotions([w(1, 5), w(2, 7)], null, new Map())).toEqual([1, 2]);
  });

  it('a ticket category’s quota holds its own parties back while others move up', () => {
    const quota = new Map([[10, 1]]);
    expect(choosePromotions([w(1, 2, 10), w(2, 1, 10), w(3, 1, 10), w(4, 1, 20)], 5, quota)).toEqual([2, 4]);
  });

  it('no seat left: nobody moves', () => {
    expect(choosePromotions([w(1, 1)], 0, new Map())).toEqual([]);
  });
});
