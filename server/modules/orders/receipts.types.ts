/** What an issued receipt or credit note says, frozen when it is issued (docs/decisions/037-receipts.md). */
import type { Seller } from '../settings/settings.service';

export type ReceiptKind = 'receipt' | 'credit_note';

export interface ReceiptLine {
  eventTitle: string;
  /** The ticket type's name, null for an event sold at its own price. */
  category: string | null;
  quantity: number;
  /** The line's price before the code's discount, taxes included. */
  grossCents: number;
}

/** Net, tax and gross of the lines taxed at one rate (rateBp null: the order kept only its totals). */
export interface ReceiptTax {
  rateBp: number | null;
  netCents: number;
  taxCents: number;
  grossCents: number;
}

export interface ReceiptSnapshot {
  seller: Seller;
  buyer: { name: string; email: string };
  orderId: number;
  currency: string;
  lines: ReceiptLine[];
  /** The code and what it took off, when one did. */
  discount: { code: string; cents: number } | null;
  taxes: ReceiptTax[];
  netCents: number;
  taxCents: number;
  grossCents: number;
  /** When the order was paid (UTC `Y-m-d H:i:s`). */
  paidUtc: string | null;
  /** The payment provider (`local`, `stripe`), printed in words. */
  method: string | null;
  /** The IANA zone its dates are written in: the event's. */
  timeZone?: string;
  /** A credit note's: the number of the receipt it reverses (`R-000001`). */
  reverses?: string;
}
