/** A host's own space (docs/api.md#host-space): shapes shared by the server and the admin app. */
import { z } from './validation';
import { meetingUrlProblem } from './booking/meeting-links';

export const HOST_BIO_MAX = 500;
export const HOST_NAME_MAX = 190;
/** Photo uploads: the types accepted (sniffed from the bytes, not the name) and the largest size. */
export const HOST_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const HOST_PHOTO_MAX_BYTES = 5 * 1024 * 1024;

const ZMeetingUrl = z
  .string()
  .trim()
  .superRefine((v, issue) => {
    const problem = meetingUrlProblem(v);
    if (problem) issue.addIssue({ code: 'custom', message: problem });
  });

/** PATCH /hosts/{userId}/profile: any of the fields; '' clears the bio or the link. */
export const ZHostProfilePatch = z.strictObject({
  displayName: z.string().trim().min(1).max(HOST_NAME_MAX).optional(),
  bio: z.string().trim().max(HOST_BIO_MAX).optional(),
  meetingUrl: ZMeetingUrl.optional(),
});
export type HostProfilePatch = z.infer<typeof ZHostProfilePatch>;

/** A host's profile as they (and administrators) see it. */
export const ZHostProfileDto = z.object({
  userId: z.number().int(),
  displayName: z.string(),
  email: z.string(),
  bio: z.string(),
  meetingUrl: z.string(),
  /** `/svc/v1/hosts/{userId}/photo?v=…` (changes with the photo), or null when there is none. */
  photoUrl: z.string().nullable(),
});
export type HostProfileDto = z.infer<typeof ZHostProfileDto>;

export { ZPublicHostDto, type PublicHostDto } from './booking';

/** A host in the administrators' Hosts list: users who host at least one booking type. */
export const ZHostSummaryDto = z.object({
  userId: z.number().int(),
  displayName: z.string(),
  email: z.string(),
  role: z.string(),
  bookingTypeIds: z.array(z.number().int()),
  upcomingBookings: z.number().int(),
});
export type HostSummaryDto = z.infer<typeof ZHostSummaryDto>;

/** A host's photo address (same origin: the content policy keeps img-src 'self'); `v` changes with the photo. */
export function hostPhotoPath(userId: number, etag: string | null): string | null {
  return etag ? `/svc/v1/hosts/${userId}/photo?v=${encodeURIComponent(etag)}` : null;
}
