/**
 * The REST transport of declared operations: each operation with a REST binding becomes one
 * route under /svc/v1, run by `runRoute` (access → screen → validation → handler → answer).
 */
import type { z } from 'zod';
import { defineRoute, listResult, type AnyRouteDef, type RouteResponse } from './route';
import { restInputParts, type AnyOperation, type OperationRecord } from './operation';

/** The REST route an operation's binding describes. */
export function routeOf(op: AnyOperation): AnyRouteDef {
  const rest = op.rest;
  if (!rest) throw new Error(`operation "${op.summary}" has no REST binding`);
  const parts = restInputParts(op);
  const status = rest.status ?? (op.output || rest.produces ? 200 : 204);
  const responses: Record<number, RouteResponse> = {};
  const success = rest.describe ?? op.summary;
  if (rest.produces) responses[status] = { description: success, produces: rest.produces };
  else if (!op.output) responses[status] = { description: success };
  else if (rest.list) {
    const item = ((op.output as z.ZodObject).shape.items as z.ZodArray).element as z.ZodType;
    responses[status] = { description: success, schema: item, list: true };
  } else responses[status] = { description: success, schema: op.output };
  // a 304 Not Modified never has a body
  for (const [code, description] of Object.entries(rest.alsoAnswers ?? {}))
    responses[Number(code)] = code === '304' ? { description } : { ...responses[status]!, description };
  for (const [code, description] of Object.entries(rest.errors ?? {})) responses[Number(code)] = { description, error: true };

  return defineRoute({
    method: rest.method,
    path: rest.path,
    summary: op.summary,
    tags: rest.tags,
    access: op.access,
    params: parts.params,
    query: parts.query,
    body: parts.body,
    bodyFormat: rest.bodyFormat,
    rawBody: rest.rawBody,
    rawBodyTypes: rest.rawBodyTypes,
    requestHeaders: rest.requestHeaders,
    documentedBody: rest.documentedBody,
    before: op.screen ? async ({ c, ctx, principal, ip, raw }) => op.screen!({ c, ctx, principal, ip, raw: await raw() }) : undefined,
    responses,
    async handler({ params, query, body, principal, ip, c, ctx }) {
      const input = rest.bodyKey
        ? { ...(params as object), ...(query as object), [rest.bodyKey]: body }
        : parts.params || parts.query || parts.body
          ? mergeInput(params, query, body)
          : undefined;
      let answered = status;
      const result: unknown = await op.handler({
        input,
        principal,
        ip,
        c,
        ctx,
        reply: {
          status: (code) => {
            answered = code;
          },
        },
      });
      if (result instanceof Response) return result;
      if (rest.list) {
        const page = result as { items: unknown[]; total: number };
        return { ...listResult(page.items, page.total), headers: { ...rest.headers, 'X-Total-Count': String(page.total) } };
      }
      return { status: answered, body: result, headers: rest.headers };
    },
  });
}

/** The input from its parts; a body that is not an object (a bare array) is the input itself. */
function mergeInput(params: unknown, query: unknown, body: unknown): unknown {
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) return body;
  return { ...(query as object), ...(body as object), ...(params as object) };
}

/** Every REST route of some operation records, in declaration order (Hono matches the first). */
export function routesOf(...records: OperationRecord[]): AnyRouteDef[] {
  return records.flatMap((record) =>
    Object.values(record)
      .filter((op) => op.rest)
      .map(routeOf),
  );
}
