/**
 * The tRPC data transformer of server and PWA: superjson's wire format, with a fast path.
 *
 * superjson walks every value to annotate Dates, Maps, undefined and the like, and copies the
 * whole payload again when reading it; for a 500-scan push that is most of the transport's
 * cost. Almost every payload is plain JSON already, and superjson writes plain JSON as
 * `{ json }` with no `meta` — so a value that is plain JSON is sent as is, and a payload without
 * `meta` is read as is (it was just parsed, nothing else holds it). Anything else goes through
 * superjson itself, and the wire stays readable by any superjson client.
 * Difference: an object referenced twice in one plain payload arrives as two equal copies.
 */
import superjson from 'superjson';

type Payload = { json: unknown; meta?: unknown };

/** True when `JSON.stringify` keeps `value` exactly: strings, finite numbers, booleans, null, arrays and plain objects of those. */
export function isPlainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i])) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}

export const transformer = {
  serialize: (value: unknown): Payload => (isPlainJson(value) ? { json: value } : superjson.serialize(value)),
  deserialize: (payload: Payload): unknown =>
    typeof payload === 'object' && payload !== null && payload.meta === undefined
      ? payload.json
      : superjson.deserialize(payload as Parameters<typeof superjson.deserialize>[0]),
};
