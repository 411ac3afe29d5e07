/**
 * Checks REST answers against the OpenAPI document the server publishes: every test server
 * runs each /svc/v1 answer through it, and closing the server fails the file when an answer
 * was not what the document says (an undocumented status, media type, header or body shape).
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { MiddlewareHandler } from 'hono';
import { allRoutes } from '../../server/modules';
import { buildOpenApi } from '../../server/api/openapi';

type Json = Record<string, any>;

interface DocumentedOperation {
  method: string;
  template: string;
  pattern: RegExp;
  responses: Json;
}

const DOC = buildOpenApi(allRoutes(), { version: 'test', serverUrl: '' }) as Json;
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
ajv.addSchema({ $id: 'doc', components: DOC.components }, 'doc');
const compiled = new Map<string, ValidateFunction>();

const operations: DocumentedOperation[] = Object.entries(DOC.paths as Json).flatMap(([template, methods]) =>
  Object.entries(methods as Json).map(([method, op]) => ({
    method,
    template,
    // a parameter is one segment; literal segments win over parameters, as in the router
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    responses: (op as Json).responses,
  })),
);
const literalsFirst = [...operations].sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));

function validatorFor(key: string, schema: Json): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    const local = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as Json;
    validate = ajv.compile(local);
    compiled.set(key, validate);
  }
  return validate;
}

/** What is wrong with one answer, or null when the document describes it. */
export function checkAnswer(method: string, path: string, status: number, headers: Headers, text: string | null): string | null {
  const op = literalsFirst.find((o) => o.method === method.toLowerCase() && o.pattern.test(path));
  const where = `${method} ${path} → ${status}`;
  const documented = op
    ? (op.responses[String(status)] ?? op.responses.default)
    : { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  if (!documented) return `${where}: status not documented`;
  const content = documented.content as Json | undefined;
  if (!content) return !text ? null : `${where}: documented without a body, answered ${text.length} bytes`;
  const mediaType = (headers.get('content-type') ?? '').split(';')[0]!.trim();
  const media = content[mediaType] as Json | undefined;
  if (!media) return `${where}: media type '${mediaType}' not documented (${Object.keys(content).join(', ')})`;
  for (const name of Object.keys((documented.headers as Json | undefined) ?? {})) {
    if (name !== 'Retry-After' && !headers.has(name)) return `${where}: header ${name} missing`;
  }
  if (mediaType !== 'application/json' || text === null) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${where}: body is not JSON`;
  }
  const validate = validatorFor(`${op?.method} ${op?.template} ${status}`, media.schema as Json);
  if (validate(body)) return null;
  return `${where}: ${ajv.errorsText(validate.errors)} (${op?.template ?? 'error body'})`;
}

/** A middleware for the REST sub-app that records every answer that departs from the document. */
export function openApiRecorder(problems: string[]): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const path = new URL(c.req.url).pathname.replace(/^\/svc\/v1/, '');
    if (path === '/openapi.json') return;
    // a streamed download is checked for its status and media type, not read
    const streamed = (res.headers.get('content-disposition') ?? '').startsWith('attachment');
    const problem = checkAnswer(c.req.method, path, res.status, res.headers, streamed ? null : await res.clone().text());
    if (problem) problems.push(problem);
  };
}
