/**
 * A host's own space (docs/api.md#host-space, docs/decisions/043-host-space.md): their bookings,
 * their profile (name, photo, short bio, meeting link) and, for administrators, the list of hosts.
 * A host acts for themselves; an administrator for anyone.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { AppError } from '../../../shared/errors';
import type { BookingDto, BookingListQuery } from '../../../shared/booking';
import { hostPhotoPath, HOST_PHOTO_MAX_BYTES, type HostProfileDto, type HostProfilePatch, type HostSummaryDto } from '../../../shared/hosts';
import { toUtcString } from '../../../shared/time';
import type { AppContext } from '../../context';
import type { Principal } from '../../auth/principal';
import { bookingService } from '../booking/booking.service';
import { profilesRepository, type HostProfileRow } from './profiles.repository';

/** The stored photo's longest side: the booking page shows it small. */
const PHOTO_SIDE = 256;
const PHOTO_QUALITY = 82;

/** What a photo's first bytes say it is; anything else is refused whatever its name or header. */
function sniffImage(bytes: Uint8Array): 'image/jpeg' | 'image/png' | 'image/webp' | null {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

const badPhoto = (problem: string) => new AppError('svc_invalid_param', 'Invalid parameter(s): photo', { params: { photo: problem } });

/** The user's own space, or any user's for an administrator; staff, other hosts and door devices are refused. */
export function assertMayActFor(principal: Principal, userId: number): void {
  if (principal.role === 'administrator') return;
  if (principal.role !== 'host' || principal.deviceId !== undefined || principal.userId !== userId) throw new AppError('svc_forbidden');
}

function profileDto(row: HostProfileRow): HostProfileDto {
  return {
    userId: row.userId,
    displayName: row.displayName,
    email: row.email,
    bio: row.bio,
    meetingUrl: row.meetingUrl,
    photoUrl: hostPhotoPath(row.userId, row.photoEtag),
  };
}

export function hostSpaceService(ctx: AppContext) {
  const { db } = ctx;

  async function profileOrNotFound(userId: number): Promise<HostProfileRow> {
    const row = await profilesRepository.find(db, userId);
    if (!row) throw new AppError('svc_not_found', 'No such user.');
    return row;
  }

  return {
    /** The host's bookings, upcoming first (soonest first), then past: GET /bookings's filters, scoped to them. */
    async bookings(principal: Principal, userId: number, query: BookingListQuery): Promise<{ items: BookingDto[]; total: number }> {
      assertMayActFor(principal, userId);
      await profileOrNotFound(userId);
      return bookingService(ctx).list({ ...query, hostUserId: userId });
    },

    async profile(principal: Principal, userId: number): Promise<HostProfileDto> {
      assertMayActFor(principal, userId);
      return profileDto(await profileOrNotFound(userId));
    },

    async updateProfile(principal: Principal, userId: number, patch: HostProfilePatch): Promise<HostProfileDto> {
      assertMayActFor(principal, userId);
      await profileOrNotFound(userId);
      const { displayName, ...fields } = patch;
      await db.transaction(async (tx) => {
        if (displayName !== undefined) await profilesRepository.setDisplayName(tx, userId, displayName);
        if (fields.bio !== undefined || fields.meetingUrl !== undefined) await profilesRepository.upsert(tx, userId, fields);
      });
      return profileDto(await profileOrNotFound(userId));
    },

    /**
     * A new photo: JPEG, PNG or WebP by its bytes (not its name or header), at most 5 MB,
     * re-encoded as a small JPEG — which drops EXIF (camera, place) and anything hidden in the file.
     */
    async setPhoto(principal: Principal, userId: number, bytes: Uint8Array): Promise<HostProfileDto> {
      assertMayActFor(principal, userId);
      await profileOrNotFound(userId);
      if (bytes.length === 0) throw badPhoto('is empty');
      if (bytes.length > HOST_PHOTO_MAX_BYTES) throw badPhoto('must be at most 5 MB');
      if (!sniffImage(bytes)) throw badPhoto('must be a JPEG, PNG or WebP image');
      let encoded: Buffer;
      try {
        encoded = await sharp(bytes, { limitInputPixels: 50_000_000, failOn: 'error' })
          .rotate()
          .resize(PHOTO_SIDE, PHOTO_SIDE, { fit: 'cover' })
          .flatten({ background: '#ffffff' })
          .jpeg({ quality: PHOTO_QUALITY, mozjpeg: true })
          .toBuffer();
      } catch (err) {
        throw new AppError('svc_invalid_param', 'Invalid parameter(s): photo', { params: { photo: 'could not be read as an image' } }, { cause: err });
      }
      await profilesRepository.setPhoto(db, userId, {
        bytes: encoded,
        type: 'image/jpeg',
        etag: createHash('sha256').update(encoded).digest('hex').slice(0, 32),
      });
      return profileDto(await profileOrNotFound(userId));
    },

    async removePhoto(principal: Principal, userId: number): Promise<void> {
      assertMayActFor(principal, userId);
      await profileOrNotFound(userId);
      await profilesRepository.setPhoto(db, userId, null);
    },

    /** The stored photo (public: the booking page shows it), or 404. */
    async photo(userId: number): Promise<{ bytes: Buffer; type: string; etag: string }> {
      const photo = await profilesRepository.photo(db, userId);
      if (!photo) throw new AppError('svc_not_found', 'No photo.');
      return photo;
    },

    /** Administrators: every user who hosts a booking type, by name. */
    async hosts(nowMs = Date.now()): Promise<HostSummaryDto[]> {
      const types = await profilesRepository.typeHosts(db);
      const byHost = new Map<number, number[]>();
      for (const type of types) for (const id of new Set(type.hosts)) byHost.set(id, [...(byHost.get(id) ?? []), type.id]);
      const ids = [...byHost.keys()];
      const [rows, counts] = await Promise.all([profilesRepository.findMany(db, ids), profilesRepository.upcomingCounts(db, ids, toUtcString(nowMs))]);
      return rows
        .map((row) => ({
          userId: row.userId,
          displayName: row.displayName,
          email: row.email,
          role: row.role,
          bookingTypeIds: (byHost.get(row.userId) ?? []).sort((a, b) => a - b),
          upcomingBookings: counts.get(row.userId) ?? 0,
        }))
        .sort((a, b) => (a.displayName || a.email).localeCompare(b.displayName || b.email) || a.userId - b.userId);
    },
  };
}
