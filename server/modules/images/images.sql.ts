import { customType, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The stored variants of cover images and the logo (docs/decisions/049-cover-images.md): made
 * once at upload, kept in the database so every instance serves them and backups include them.
 * An image is keyed by the hash of its upload; events, booking types and the logo setting name
 * it by that hash, and variants no one names are removed when an image is replaced or removed.
 */
export const imageVariants = pgTable(
  'svc_image_variants',
  {
    hash: text('hash').notNull(),
    width: integer('width').notNull(),
    /** `webp` for every width; `jpg` at the largest width (link previews that read no WebP), and for a logo at the smallest too (mails, PDF tickets). */
    format: text('format').$type<'webp' | 'jpg'>().notNull(),
    height: integer('height').notNull(),
    bytes: bytea('bytes').notNull(),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
  },
  (t) => [primaryKey({ columns: [t.hash, t.width, t.format] })],
);
