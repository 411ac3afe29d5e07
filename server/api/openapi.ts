import { z, type ZodType } from 'zod';
import type { AnyRouteDef, RouteResponse } from './route';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parametersOf(schema: ZodType | undefined, where: 'path' | 'query', rename: Record<string, string> = {}): unknown[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => {
    const documented = rename[name] ?? name;
    const described = documented === name ? s : { ...s, description: `${String(s.description ?? '').trim()} (the ${name})`.trim() };
    return { name: documented, in: where, required: where === 'path' || required.has(name), schema: described };
  });
}

/**
 * OpenAPI forbids two templates that differ only in parameter names (`/bookings/{token}` and
 * `/bookings/{id}`); such routes share one template whose parameter names join theirs
 * (`{tokenOrId}`), and each operation says what it expects there.
 */
/** A route's path as documented and called: a parameter with a pattern and a file suffix (`:token{[A-Za-z0-9_-]+\\.ics}`) reads `:token.ics`. */
export const documentedPath = (path: string): string => path.replace(/\{[^}]*\\\.(\w+)\}/g, '.$1');
const docPath = (route: AnyRouteDef) => documentedPath(route.path);

function templateNames(routes: AnyRouteDef[]): Map<AnyRouteDef, { path: string; rename: Record<string, string> }> {
  const groups = new Map<string, AnyRouteDef[]>();
  for (const route of routes) {
    const shape = docPath(route).replace(/:[A-Za-z_]\w*/g, ':');
    groups.set(shape, [...(groups.get(shape) ?? []), route]);
  }
  const out = new Map<AnyRouteDef, { path: string; rename: Record<string, string> }>();
  for (const group of groups.values()) {
    const namesOf = (r: AnyRouteDef) => [...docPath(r).matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
    const slots = namesOf(group[0]!).map((_, i) => [...new Set(group.map((r) => namesOf(r)[i]!))]);
    const joined = slots.map((names) => names.map((n, i) => (i === 0 ? n : n[0]!.toUpperCase() + n.slice(1))).join('Or'));
    for (const route of group) {
      let i = 0;
      const path = docPath(route).replace(/:[A-Za-z_]\w*/g, () => `{${joined[i++]}}`);
      const rename = Object.fromEntries(namesOf(route).map((n, j) => [n, joined[j]!]));
      out.set(route, { path, rename });
    }
  }
  return out;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };

const HEADERS = {
  'X-Total-Count': { description: 'Items matching the filters, over every page', schema: { type: 'integer', minimum: 0 } },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
};

function responseOf(status: number, res: RouteResponse): Record<string, unknown> {
  const out: Record<string, unknown> = { description: res.description };
  if (res.error || status >= 400) {
    out.content = { 'application/json': { schema: ERROR_REF } };
    if (status === 429) out.headers = { 'Retry-After': HEADERS['Retry-After'] };
  } else if (res.produces) {
    out.content = Object.fromEntries(res.produces.map((type) => [type, { schema: type.includes('json') ? { type: 'array', items: {} } : { type: 'string' } }]));
  } else if (res.schema) {
    const schema = toSchema(res.schema, 'output');
    out.content = { 'application/json': { schema: res.list ? { type: 'array', items: schema } : schema } };
    if (res.list) out.headers = { 'X-Total-Count': HEADERS['X-Total-Count'] };
  }
  return out;
}

const ERROR_BODY = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'string', examples: ['svc_invalid_param'] },
    message: { type: 'string' },
    data: {
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'integer' }, params: { type: 'object', additionalProperties: { type: 'string' } } },
    },
  },
};

/** OpenAPI 3.1 built from the same zod schemas the routes validate with. */
export function buildOpenApi(routes: AnyRouteDef[], info: { version: string; serverUrl: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const templates = templateNames(routes);
  for (const route of routes) {
    const path = templates.get(route)!.path;
    const responses: Record<string, unknown> = {};
    for (const [status, res] of Object.entries(route.responses)) responses[status] = responseOf(Number(status), res);
    if (!responses['400'] && (route.params || route.query || route.body))
      responses['400'] = responseOf(400, { description: 'Invalid input: data.params names each bad field', error: true });
    if (!responses['401'] && route.access !== 'public') responses['401'] = responseOf(401, { description: 'No valid session or token', error: true });
    if (!responses['403'] && route.access !== 'public')
      responses['403'] = responseOf(403, { description: 'The role may not do this, or a cookie write from another origin', error: true });
    const hasPathParams = /:[A-Za-z_]/.test(route.path);
    if (!responses['404'] && hasPathParams) responses['404'] = responseOf(404, { description: 'Nothing answers to this path parameter', error: true });
    // the body limit answers before any route (server/app.ts), whatever the method but GET and HEAD
    if (!responses['413'] && route.method !== 'get')
      responses['413'] = responseOf(413, { description: 'The request body is over the size limit', error: true });
    if (!responses['415'] && route.body)
      responses['415'] = responseOf(415, {
        description: route.bodyFormat === 'json-or-form' ? 'The body is neither JSON nor a form' : 'The body is not JSON (Content-Type: application/json)',
        error: true,
      });
    responses.default = { description: 'Any other error', content: { 'application/json': { schema: ERROR_REF } } };
    const headers = (route.requestHeaders ?? []).map((h) => ({
      name: h.name,
      in: 'header',
      required: h.required,
      description: h.description,
      schema: { type: 'string' },
    }));
    const operation: Record<string, unknown> = {
      operationId: `${route.method}${docPath(route).replace(/[/:{}-]+(\w)?/g, (_, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
      summary: route.summary,
      tags: route.tags,
      parameters: [...parametersOf(route.params, 'path', templates.get(route)!.rename), ...parametersOf(route.query, 'query'), ...headers],
      responses,
      security: route.access === 'public' ? [] : [{ session: [] }, { bearer: [] }],
    };
    if (route.body) {
      const schema = toSchema(route.documentedBody ?? route.body, 'input');
      const content: Record<string, unknown> = { 'application/json': { schema } };
      if (route.bodyFormat === 'json-or-form') content['application/x-www-form-urlencoded'] = { schema };
      operation.requestBody = { required: true, content };
    } else if (route.rawBody) {
      const types = route.rawBodyTypes ?? ['application/json'];
      const schema = route.rawBodyTypes ? { type: 'string', contentMediaType: types[0] } : { type: 'object' };
      operation.requestBody = { required: true, description: route.rawBody, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
    }
    paths[path] = { ...paths[path], [route.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'svc REST API',
      version: info.version,
      description: 'Registration, booking and check-in. Errors use the body {code, message, data:{status}}.',
    },
    servers: [{ url: `${info.serverUrl}/svc/v1` }],
    paths,
    components: {
      schemas: { Error: ERROR_BODY },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'svc_session' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
