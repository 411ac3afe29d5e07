/** The REST shapes the visitor pages read (SPEC §4; the server modules' REST route files). */
import type { EventDto } from '../../shared/events';
import type { PublicBookingTypeDto } from '../../shared/booking';
import type { Slot } from '../../shared/booking/slots';

export type { Slot };

export type { EventDto };

/** A booking type as the public sees it (with the site currency and the location label). */
export type PublicBookingType = PublicBookingTypeDto;


export interface BookingCreated {
  bookingId: number;
  status: string;
  startUtc: string;
  endUtc: string;
  hostUserId: number;
  paymentUrl?: string;
}

export interface HolderBooking {
  bookingId: number;
  bookingTypeId: number;
  customerEmail: string;
  customerName: string;
  customerTz: string;
  startUtc: string;
  endUtc: string;
  status: string;
  quantity: number;
  paymentStatus: string | null;
  bookingTypeTitle: string;
  hostName: string;
  durationMinutes: number;
  location: string;
  locationMode: string;
  priceCents: number;
  currency: string;
  canCancel: boolean;
  canReschedule: boolean;
}

export interface SignupFormData {
  html: string;
  formToken: string;
}

export interface SignupResult {
  id: number;
  status: string;
}

export interface CancelPreview {
  eventId: number;
  eventTitle: string;
  eventStartsUtc: string;
  eventTimezone: string;
  displayName: string;
  quantity: number;
  status: string;
}
