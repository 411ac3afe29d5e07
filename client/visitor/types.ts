/** The REST shapes the visitor pages read (SPEC §4; the server modules' REST route files). */
import type { EventDto } from '../../shared/events';

export type { EventDto };

export interface PublicBookingType {
  id: number;
  title: string;
  slug: string;
  description: string;
  durationMinutes: number;
  timezone: string;
  capacity: number;
  priceCents: number;
  requiresApproval: boolean;
  locationMode: string;
  locationValue: string;
  /** Site currency (ISO 4217) and the location mode's label, resolved by the server. */
  currency: string;
  locationLabel: string;
}

/** Contract Slot table. */
export interface Slot {
  start_utc: string;
  end_utc: string;
  start: string;
  label: string;
  hosts: number[];
  capacity_left: number;
}

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
