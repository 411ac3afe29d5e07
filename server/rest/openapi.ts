import { z, type ZodType } from 'zod';
import type { AnyRouteDef } from './route';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parametersOf(schema: ZodType | undefined, where: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: s }));
}

const ERROR_BODY = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'string', examples: ['svc_invalid_param'] },
    message: { type: 'string' },
    data: { type: 'object', required: ['status'], properties: { status: { type: 'integer' }, params: { type: 'object', additionalProperties: { type: 'string' } } } },
  },
};

/** OpenAPI 3.1 built from the same zod schemas the routes validate with. */
export function buildOpenApi(routes: AnyRouteDef[], info: { version: string; serverUrl: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
    const responses: Record<string, unknown> = {};
    for (const [status, res] of Object.entries(route.responses)) {
      responses[status] = res.schema
        ? { description: res.description, content: { 'application/json': { schema: toSchema(res.schema, 'output') } } }
        : { description: res.description };
    }
    responses.default = { description: 'An error (SPEC §3)', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    const operation: Record<string, unknown> = {
      operationId: `${route.method}${route.path.replace(/[/:{}-]+(\w)?/g, (_, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
      summary: route.summary,
      tags: route.tags,
      parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
      responses,
      security: route.access === 'public' ? [] : [{ session: [] }, { bearer: [] }],
    };
    if (route.body) {
      const schema = toSchema(route.body, 'input');
      const content: Record<string, unknown> = { 'application/json': { schema } };
      if (route.bodyFormat === 'json-or-form') content['application/x-www-form-urlencoded'] = { schema };
      operation.requestBody = { required: true, content };
    }
    (paths[path] ??= {})[route.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'svc REST API', version: info.version, description: 'Registration, booking and check-in. Errors use the body {code, message, data:{status}}.' },
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
