/** The REST shapes the visitor pages read (SPEC §4; the server modules' REST route files). */
import type { EventDto } from '../../shared/events';
import type { BookingCreatedDto, BookingHolderDto, PublicBookingTypeDto } from '../../shared/booking';
import type { Slot } from '../../shared/booking/slots';

export type { Slot };

export type { EventDto };

/** A booking type as the public sees it (with the site currency and the location label). */
export type PublicBookingType = PublicBookingTypeDto;

/** POST /bookings answered this (never the cancel token). */
export type BookingCreated = BookingCreatedDto;

/** The manage page's booking (GET /bookings/{token}). */
export type HolderBooking = BookingHolderDto;

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
