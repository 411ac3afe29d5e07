/**
 * GET /media/{hash}-{width}.webp|jpg: a stored image variant (docs/api.md#images). Its address
 * changes with its content, so it is cached for a year as immutable, with an ETag for a 304.
 */
import type { Context } from 'hono';
import { AppError } from '../../../shared/errors';
import type { AppContext } from '../../context';
import { imagesService } from './images.service';

export const MEDIA_CACHE = 'public, max-age=31536000, immutable';
const FILE = /^([0-9a-f]{32})-(\d{1,5})\.(webp|jpg)$/;

export function mediaHandler(ctx: AppContext) {
  return async (c: Context): Promise<Response> => {
    const match = FILE.exec(c.req.param('file') ?? '');
    if (!match) throw new AppError('svc_not_found', 'No such image.');
    const [, hash, width, format] = match as unknown as [string, string, string, 'webp' | 'jpg'];
    const etag = `"${hash}-${width}-${format}"`;
    const headers = { etag, 'cache-control': MEDIA_CACHE, 'x-content-type-options': 'nosniff' };
    const asked = c.req.header('if-none-match');
    if (asked && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return c.body(null, 304, headers);
    const bytes = await imagesService(ctx).variant(hash, Number(width), format);
    if (!bytes) throw new AppError('svc_not_found', 'No such image.');
    return c.body(new Uint8Array(bytes), 200, {
      ...headers,
      'content-type': format === 'webp' ? 'image/webp' : 'image/jpeg',
      'content-length': String(bytes.length),
    });
  };
}
