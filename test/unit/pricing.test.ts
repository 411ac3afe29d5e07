/**
 * The one pricing function (shared/pricing.ts, docs/api.md#tickets): worked examples of the
 * rounding rule, then properties over generated orders.
 *
 * Reproduce a property failure with the seed it prints: FC_SEED=<seed> npx vitest run --project unit test/unit/pricing.test.ts
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { describePrice, priceOrder, splitProportionally, visibleCategories, type PricingCategory, type VoucherTerms } from '../../shared/pricing';

const SEED = process.env.FC_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FC_SEED);
const RUNS = Number(process.env.FC_RUNS ?? 1000);

const vip: PricingCategory = { id: 1, priceCents: 1800, taxRateBp: 1900, taxMode: 'included' };
const standard: PricingCategory = { id: 2, priceCents: 1000, taxRateBp: 700, taxMode: 'added' };

describe('priceOrder: worked examples of the rounding rule', () => {
  it('an included rate splits the line total: 2 × 18.00 at 19 % is 30.25 net + 5.75 tax = 36.00', () => {
    const priced = priceOrder({ categories: [vip], lines: [{ categoryId: 1, quantity: 2 }] });
    expect(priced.lines[0]).toMatchObject({ unitPriceCents: 1800, unitPaidCents: 1800, netCents: 3025, taxCents: 575, grossCents: 3600, discountCents: 0 });
    expect(priced).toMatchObject({ netCents: 3025, taxCents: 575, grossCents: 3600, quantity: 2, discountedQuantity: 0 });
  });

  it('tax is rounded once per line, half up, not per ticket: 3 × 0.07 at 7 % added is 0.21 + 0.01', () => {
    // per ticket 0.0049 rounds to 0 three times; on the line 0.0147 rounds to 0.01
    const cheap: PricingCategory = { id: 3, priceCents: 7, taxRateBp: 700, taxMode: 'added' };
    const priced = priceOrder({ categories: [cheap], lines: [{ categoryId: 3, quantity: 3 }] });
    expect(priced.lines[0]).toMatchObject({ netCents: 21, taxCents: 1, grossCents: 22 });
  });

  it('an exact half cent rounds up: 50 cents net at 1 % added is 0.005 tax → 0.01', () => {
    const half: PricingCategory = { id: 4, priceCents: 50, taxRateBp: 100, taxMode: 'added' };
    expect(priceOrder({ categories: [half], lines: [{ categoryId: 4, quantity: 1 }] }).taxCents).toBe(1);
  });

  it('a 20 % code on VIP only discounts the VIP line; the discount is what it took off the gross', () => {
    const voucher: VoucherTerms = { kind: 'percent', value: 2000, categoryIds: [1] };
    const priced = priceOrder({
      categories: [vip, standard],
      lines: [
        { categoryId: 1, quantity: 2 },
        { categoryId: 2, quantity: 1 },
      ],
      voucher,
    });
    const [v, s] = priced.lines;
    expect(v).toMatchObject({ unitPaidCents: 1440, grossCents: 2880, discountCents: 720, discounted: true });
    expect(s).toMatchObject({ unitPaidCents: 1000, netCents: 1000, taxCents: 70, grossCents: 1070, discountCents: 0, discounted: false });
    expect(priced).toMatchObject({ grossCents: 3950, discountCents: 720, discountedQuantity: 2, quantity: 3 });
  });

  it('on an added-tax category the discount includes the tax it saves', () => {
    const priced = priceOrder({ categories: [standard], lines: [{ categoryId: 2, quantity: 1 }], voucher: { kind: 'fixed', value: 500, categoryIds: null } });
    // 10.00 + 0.70 before, 5.00 + 0.35 after
    expect(priced.lines[0]).toMatchObject({ unitPaidCents: 500, grossCents: 535, discountCents: 535 });
  });

  it('a fixed amount larger than the price makes the ticket free, never negative', () => {
    const priced = priceOrder({ categories: [vip], lines: [{ categoryId: 1, quantity: 3 }], voucher: { kind: 'fixed', value: 5000, categoryIds: null } });
    expect(priced).toMatchObject({ grossCents: 0, netCents: 0, taxCents: 0, discountCents: 5400 });
  });

  it('a set price lowers each ticket to it and never raises one', () => {
    const lower = priceOrder({ categories: [vip], lines: [{ categoryId: 1, quantity: 2 }], voucher: { kind: 'set_price', value: 500, categoryIds: null } });
    expect(lower.lines[0]).toMatchObject({ unitPaidCents: 500, grossCents: 1000, discountCents: 2600 });
    const higher = priceOrder({ categories: [vip], lines: [{ categoryId: 1, quantity: 2 }], voucher: { kind: 'set_price', value: 9900, categoryIds: null } });
    expect(higher.lines[0]).toMatchObject({ unitPaidCents: 1800, grossCents: 3600, discountCents: 0 });
  });

  it('a line naming a category the order was not given is refused, naming the line', () => {
    let error: unknown;
    try {
      priceOrder({ categories: [vip], lines: [{ categoryId: 99, quantity: 1 }] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('svc_invalid_param');
    expect((error as AppError).data.params).toEqual({ 'tickets.0.categoryId': 'is not a ticket category of this event' });
  });
});

describe('visibleCategories', () => {
  const categories = [
    { id: 1, hidden: false },
    { id: 2, hidden: true },
    { id: 3, hidden: true },
  ];

  it('without a voucher a hidden category is not offered', () => {
    expect(visibleCategories(categories).map((c) => c.id)).toEqual([1]);
  });

  it('a voucher that unlocks hidden categories opens only the hidden ones it applies to', () => {
    expect(visibleCategories(categories, { unlocksHidden: true, categoryIds: [2] }).map((c) => c.id)).toEqual([1, 2]);
    expect(visibleCategories(categories, { unlocksHidden: true, categoryIds: null }).map((c) => c.id)).toEqual([1, 2, 3]);
  });

  it('a voucher that does not unlock hidden categories opens none, even one it applies to', () => {
    expect(visibleCategories(categories, { unlocksHidden: false, categoryIds: [2, 3] }).map((c) => c.id)).toEqual([1]);
  });
});

describe('priceOrder properties', () => {
  beforeAll(() => console.log(`[pricing properties] seed ${SEED}, ${RUNS} runs (FC_SEED / FC_RUNS to change)`));
  const category = (id: number) =>
    fc.record({
      id: fc.constant(id),
      priceCents: fc.integer({ min: 0, max: 10_000_000 }),
      taxRateBp: fc.integer({ min: 0, max: 10_000 }),
      taxMode: fc.constantFrom('included' as const, 'added' as const),
    });
  const order = fc.integer({ min: 1, max: 5 }).chain((n) =>
    fc.record({
      categories: fc.tuple(...Array.from({ length: n }, (_, i) => category(i + 1))),
      lines: fc.array(fc.record({ categoryId: fc.integer({ min: 1, max: n }), quantity: fc.integer({ min: 0, max: 1000 }) }), { minLength: 1, maxLength: 6 }),
      voucher: fc.option(
        fc
          .oneof(
            fc.record({ kind: fc.constant('percent' as const), value: fc.integer({ min: 0, max: 10_000 }) }),
            fc.record({ kind: fc.constant('fixed' as const), value: fc.integer({ min: 0, max: 20_000_000 }) }),
            fc.record({ kind: fc.constant('set_price' as const), value: fc.integer({ min: 0, max: 20_000_000 }) }),
          )
          .chain((terms) =>
            fc.record({
              kind: fc.constant(terms.kind),
              value: fc.constant(terms.value),
              categoryIds: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: n }), { maxLength: n }), { nil: null }),
            }),
          ),
        { nil: null },
      ),
    }),
  );

  it('totals add up, nothing is negative, and the discount never exceeds the gross without it', () => {
    fc.assert(
      fc.property(order, (input) => {
        const priced = priceOrder(input);
        const without = priceOrder({ ...input, voucher: null });
        for (const [i, line] of priced.lines.entries()) {
          const category = input.categories.find((c) => c.id === line.categoryId)!;
          // integer cents, net + tax = gross, never negative
          for (const cents of [line.netCents, line.taxCents, line.grossCents, line.discountCents, line.unitPaidCents]) {
            expect(Number.isSafeInteger(cents)).toBe(true);
            expect(cents).toBeGreaterThanOrEqual(0);
          }
          expect(line.netCents + line.taxCents).toBe(line.grossCents);
          // the discount never exceeds what the line cost without the voucher, and is exactly the difference
          const before = without.lines[i]!;
          expect(line.discountCents).toBeLessThanOrEqual(before.grossCents);
          expect(line.grossCents + line.discountCents).toBe(before.grossCents);
          expect(line.unitPaidCents).toBeLessThanOrEqual(line.unitPriceCents);
          if (!line.discounted) expect(line.discountCents).toBe(0);
          // included: the price (after the voucher) is the gross; added: it is the net, and tax only adds
          const amount = line.unitPaidCents * line.quantity;
          if (category.taxMode === 'included') {
            expect(line.grossCents).toBe(amount);
            expect(line.netCents).toBeLessThanOrEqual(line.grossCents);
          } else {
            expect(line.netCents).toBe(amount);
            expect(line.grossCents).toBeGreaterThanOrEqual(line.netCents);
          }
          // the tax is the rate of the net to within half a cent (half-up rounding, once per line)
          expect(Math.abs(line.taxCents * 10_000 - line.netCents * category.taxRateBp)).toBeLessThanOrEqual(
            category.taxMode === 'added' ? 5_000 : (10_000 + category.taxRateBp) / 2,
          );
        }
        const sum = (pick: (l: (typeof priced.lines)[number]) => number) => priced.lines.reduce((t, l) => t + pick(l), 0);
        expect(priced.netCents + priced.taxCents).toBe(priced.grossCents);
        expect(priced.grossCents).toBe(sum((l) => l.grossCents));
        expect(priced.discountCents).toBe(sum((l) => l.discountCents));
        expect(priced.discountCents).toBeLessThanOrEqual(without.grossCents);
        expect(priced.grossCents).toBeLessThanOrEqual(without.grossCents);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });

  it('an included and an added category with the same gross agree on net and tax to within a cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 100 }), (netUnit, rate, quantity) => {
        const added = priceOrder({ categories: [{ id: 1, priceCents: netUnit, taxRateBp: rate, taxMode: 'added' }], lines: [{ categoryId: 1, quantity }] });
        const included = priceOrder({
          categories: [{ id: 1, priceCents: added.grossCents, taxRateBp: rate, taxMode: 'included' }],
          lines: [{ categoryId: 1, quantity: 1 }],
        });
        expect(included.grossCents).toBe(added.grossCents);
        expect(Math.abs(included.netCents - added.netCents)).toBeLessThanOrEqual(1);
        expect(Math.abs(included.taxCents - added.taxCents)).toBeLessThanOrEqual(1);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

describe('describePrice: what the page and the mail say', () => {
  const priced = priceOrder({
    categories: [vip, standard],
    lines: [
      { categoryId: 1, quantity: 2 },
      { categoryId: 2, quantity: 1 },
    ],
    voucher: { kind: 'percent', value: 2000, categoryIds: [1] },
  });

  it('without online payment it ends with "pay at the door" and the gross, after the tickets before the code, the code, net and tax per rate', () => {
    expect(describePrice(priced, { onlinePayment: false, voucherCode: 'PRESS20' })).toEqual([
      { kind: 'tickets', categoryId: 1, quantity: 2, grossCents: 3600 },
      { kind: 'tickets', categoryId: 2, quantity: 1, grossCents: 1070 },
      { kind: 'discount', code: 'PRESS20', cents: 720 },
      { kind: 'net', cents: priced.netCents },
      { kind: 'tax', rateBp: 700, cents: 70 },
      { kind: 'tax', rateBp: 1900, cents: 460 },
      { kind: 'payAtDoor', cents: 3950 },
    ]);
    expect(priced.netCents + 70 + 460).toBe(3950);
    // read as a receipt: the tickets less the code's discount are what is paid
    expect(3600 + 1070 - 720).toBe(3950);
  });

  it('with online payment it ends with the total to pay online instead', () => {
    expect(describePrice(priced, { onlinePayment: true, voucherCode: 'PRESS20' }).at(-1)).toEqual({ kind: 'payOnline', cents: 3950 });
  });

  it('a free event says nothing about paying; a priced ticket a code made free says there is nothing to pay', () => {
    const free = priceOrder({ categories: [{ id: 9, priceCents: 0, taxRateBp: 0, taxMode: 'included' }], lines: [{ categoryId: 9, quantity: 1 }] });
    expect(describePrice(free, { onlinePayment: false })).toEqual([{ kind: 'tickets', categoryId: 9, quantity: 1, grossCents: 0 }]);
    const comped = priceOrder({ categories: [vip], lines: [{ categoryId: 1, quantity: 1 }], voucher: { kind: 'set_price', value: 0, categoryIds: null } });
    expect(describePrice(comped, { onlinePayment: true, voucherCode: 'GUEST' })).toEqual([
      { kind: 'tickets', categoryId: 1, quantity: 1, grossCents: 1800 },
      { kind: 'discount', code: 'GUEST', cents: 1800 },
      { kind: 'nothingToPay' },
    ]);
  });
});

describe('splitProportionally', () => {
  it('splits an amount in proportion to the weights, the leftover cents to the largest remainders, the earlier part on a tie', () => {
    expect(splitProportionally(9500, [4000, 5500])).toEqual([4000, 5500]);
    expect(splitProportionally(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(splitProportionally(10, [1, 2])).toEqual([3, 7]);
    expect(splitProportionally(7, [0, 0])).toEqual([4, 3]);
  });

  it('always sums to the amount, each part within a cent of its exact share', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000_000 }),
        fc.array(fc.integer({ min: 0, max: 2_000_000_000 }), { minLength: 1, maxLength: 8 }),
        (amount, weights) => {
          const parts = splitProportionally(amount, weights);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(amount);
          const total = weights.reduce((a, b) => a + b, 0);
          if (total > 0) parts.forEach((p, i) => expect(Math.abs(p - (amount * weights[i]!) / total)).toBeLessThan(1.0001));
        },
      ),
    );
  });
});
