/** The pure parts of a sign-up with ticket categories (docs/decisions/028-ticket-categories.md). */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { decideTicketLines, orderTotalOf, type TicketLine } from '../../server/modules/orders/ticket-categories.service';
import type { TicketCategoryWithSold } from '../../server/modules/orders/tickets.repository';

const category = (id: number, quota: number | null, soldCount: number) => ({ id, name: `C${id}`, quota, soldCount }) as TicketCategoryWithSold;
const line = (c: TicketCategoryWithSold, quantity: number): TicketLine => ({ category: c, quantity });

/** The sign-up's total of lines at these prices (orderTotalOf: the shared pricing), its net, tax and gross. */
let nextId = 100;
function ticketsTotal(lines: Array<{ unitPriceCents: number; quantity: number; taxRateBp: number; taxMode: 'included' | 'added' }>) {
  const total = orderTotalOf(
    lines.map((l) => ({
      category: {
        id: nextId++,
        name: 'C',
        quota: null,
        soldCount: 0,
        priceCents: l.unitPriceCents,
        taxRateBp: l.taxRateBp,
        taxMode: l.taxMode,
      } as TicketCategoryWithSold,
      quantity: l.quantity,
    })),
  );
  return { netCents: total.netCents, taxCents: total.taxCents, grossCents: total.grossCents };
}

describe("the sign-up's order total", () => {
  it('included tax is taken out of the gross, added tax is put on top, each rounded half up once per line', () => {
    expect(ticketsTotal([{ unitPriceCents: 1190, quantity: 1, taxRateBp: 1900, taxMode: 'included' }])).toEqual({
      netCents: 1000,
      taxCents: 190,
      grossCents: 1190,
    });
    expect(ticketsTotal([{ unitPriceCents: 1000, quantity: 3, taxRateBp: 1900, taxMode: 'added' }])).toEqual({
      netCents: 3000,
      taxCents: 570,
      grossCents: 3570,
    });
    // 5 × 0.99 at 7 %: 34.65 cents of tax rounds to 35
    expect(ticketsTotal([{ unitPriceCents: 99, quantity: 5, taxRateBp: 700, taxMode: 'added' }])).toEqual({ netCents: 495, taxCents: 35, grossCents: 530 });
    expect(
      ticketsTotal([
        { unitPriceCents: 5000, quantity: 2, taxRateBp: 0, taxMode: 'included' },
        { unitPriceCents: 1000, quantity: 1, taxRateBp: 1000, taxMode: 'added' },
      ]),
    ).toEqual({ netCents: 11_000, taxCents: 100, grossCents: 11_100 });
  });

  it('net plus tax is always the gross, and an empty order costs nothing', () => {
    for (let price = 0; price < 500; price += 7) {
      for (const taxMode of ['included', 'added'] as const) {
        const total = ticketsTotal([{ unitPriceCents: price, quantity: 3, taxRateBp: 1900, taxMode }]);
        expect(total.netCents + total.taxCents).toBe(total.grossCents);
      }
    }
    expect(ticketsTotal([])).toEqual({ netCents: 0, taxCents: 0, grossCents: 0 });
  });
});

describe('decideTicketLines', () => {
  it('a line fits when both the event and its quota have room; later lines see the seats earlier ones took', () => {
    const vip = category(1, 3, 1);
    const standard = category(2, null, 0);
    const decided = decideTicketLines({ capacity: 5, waitlist: true }, 2, [line(vip, 2), line(standard, 1), line(standard, 1)]);
    expect(decided.map((d) => d.status)).toEqual(['going', 'going', 'waitlist']);
  });

  it('a line over its quota is waitlisted while the next category still sells', () => {
    const decided = decideTicketLines({ capacity: null, waitlist: true }, 0, [line(category(1, 2, 2), 1), line(category(2, 10, 0), 4)]);
    expect(decided.map((d) => d.status)).toEqual(['waitlist', 'going']);
  });

  it('without a waitlist, any line that does not fit refuses the whole sign-up with svc_event_full', () => {
    const refuse = () => decideTicketLines({ capacity: 10, waitlist: false }, 0, [line(category(2, null, 0), 1), line(category(1, 1, 1), 1)]);
    expect(refuse).toThrow(AppError);
    expect(refuse).toThrow(expect.objectContaining({ code: 'svc_event_full' }));
  });
});
