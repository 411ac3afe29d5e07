/** The price lines a ticket mail carries (server/modules/orders/pricing.mail.ts), in the reader's language. */
import { describe, expect, it } from 'vitest';
import { priceMailLines } from '../../server/modules/orders/pricing.mail';
import { priceOrder, type PricingCategory } from '../../shared/pricing';

const general: PricingCategory = { id: 1, priceCents: 1800, taxRateBp: 0, taxMode: 'included' };
const vip: PricingCategory = { id: 2, priceCents: 1800, taxRateBp: 1900, taxMode: 'included' };
const seller = { sellerName: 'Hall & Co Ltd', sellerAddress: '1 Market Street\n\nLondon N1 1AA', sellerTaxId: 'GB123456789' };

describe('priceMailLines', () => {
  it('without online payment a £18 ticket says "Pay at the door: £18.00"', () => {
    const priced = priceOrder({ categories: [general], lines: [{ categoryId: 1, quantity: 1 }] });
    expect(priceMailLines({ priced, currency: 'GBP', locale: 'en', onlinePayment: false })).toEqual(['1 ticket: £18.00', 'Pay at the door: £18.00']);
  });

  it('with online payment it gives the total instead, and names the categories it was given', () => {
    const priced = priceOrder({ categories: [general], lines: [{ categoryId: 1, quantity: 2 }] });
    expect(priceMailLines({ priced, currency: 'GBP', locale: 'en', onlinePayment: true, categoryNames: new Map([[1, 'General admission']]) })).toEqual([
      '2 × General admission: £36.00',
      'Total: £36.00',
    ]);
  });

  it('with tax it shows the code, net, tax per rate and the seller, and net + tax is the amount to pay', () => {
    const priced = priceOrder({ categories: [vip], lines: [{ categoryId: 2, quantity: 2 }], voucher: { kind: 'percent', value: 2000, categoryIds: null } });
    // the tickets read before the code (describePrice), so tickets less the code make the amount to pay
    expect(priceMailLines({ priced, currency: 'GBP', locale: 'en', onlinePayment: false, voucherCode: 'PRESS20', seller })).toEqual([
      '2 tickets: £36.00',
      'Code PRESS20: −£7.20',
      'Net: £24.20',
      'Tax 19%: £4.60',
      'Pay at the door: £28.80',
      'Seller: Hall & Co Ltd',
      '1 Market Street',
      'London N1 1AA',
      'Tax ID: GB123456789',
    ]);
  });

  it('speaks the reader’s language and writes money and rates their way', () => {
    const priced = priceOrder({ categories: [{ ...vip, taxRateBp: 750 }], lines: [{ categoryId: 2, quantity: 1 }] });
    const lines = priceMailLines({ priced, currency: 'EUR', locale: 'de', onlinePayment: false });
    expect(lines[0]).toBe('1 Ticket: 18,00\u00a0€');
    expect(lines).toContain('Steuer 7,5\u00a0%: 1,26\u00a0€');
    expect(lines.at(-1)).toBe('Zahlung an der Abendkasse: 18,00\u00a0€');
  });

  it('a free ticket says nothing about paying, and no seller without tax', () => {
    const priced = priceOrder({ categories: [{ ...general, priceCents: 0 }], lines: [{ categoryId: 1, quantity: 1 }] });
    expect(priceMailLines({ priced, currency: 'GBP', locale: 'en', onlinePayment: false, seller })).toEqual(['1 ticket: £0.00']);
  });
});
