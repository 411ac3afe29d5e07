import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { settings } from './security.sql';
import { randomToken } from './crypto';

const SECRET_KEY = 'server_secret';

/**
 * The HMAC key for nonces and signed form tokens. Every instance must share it, so
 * without SVC_SECRET it is made once and kept in the database.
 */
export async function loadServerSecret(db: Db, configured?: string): Promise<string> {
  if (configured) return configured;
  await db
    .insert(settings)
    .values({ key: SECRET_KEY, value: randomToken(48) })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, SECRET_KEY));
  return String(row!.value);
}
