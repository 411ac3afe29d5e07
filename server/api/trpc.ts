/**
 * The tRPC transport of declared operations: each operation (but the REST-only ones) becomes a
 * procedure behind the same access check as REST, typed from its schemas, so the PWA's calls
 * fail the build when an operation's input or output changes.
 */
import type { TRPCMutationProcedure, TRPCQueryProcedure } from '@trpc/server';
import type { z, ZodType } from 'zod';
import { procedure, router } from './procedure';
import { assertCleanText } from '../../shared/validation';
import type { AnyOperation, Operation, OperationRecord } from './operation';

type InputOf<S> = S extends ZodType ? z.input<S> : void;
type OutputOf<O> = O extends ZodType ? z.output<O> : void;
type ProcedureOf<Op> =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds declarations of every shape
  Op extends Operation<any, infer S, infer O, infer K, any>
    ? K extends 'query'
      ? TRPCQueryProcedure<{ input: InputOf<S>; output: OutputOf<O>; meta: object }>
      : TRPCMutationProcedure<{ input: InputOf<S>; output: OutputOf<O>; meta: object }>
    : never;

/** The procedures of a record of operations, without the REST-only ones (`trpc: false`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds declarations of every shape
export type ProceduresOf<R extends OperationRecord> = { [K in keyof R as R[K] extends Operation<any, any, any, any, false> ? never : K]: ProcedureOf<R[K]> };

function procedureOf(op: AnyOperation) {
  let base = procedure(op.access).use(async ({ getRawInput, next }) => {
    assertCleanText(await getRawInput());
    return next();
  });
  if (op.screen) {
    const screen = op.screen;
    base = base.use(async ({ ctx, getRawInput, next }) => {
      await screen({ c: ctx.c, ctx: ctx.ctx, principal: ctx.principal, ip: ctx.ip, raw: await getRawInput() });
      return next();
    });
  }
  const withInput = op.input ? base.input(op.input as ZodType) : base;
  const resolve = ({ input, ctx }: { input: unknown; ctx: { ctx: never; principal: never; ip: string; c: never } }) =>
    op.handler({ input, principal: ctx.principal, ip: ctx.ip, ctx: ctx.ctx, c: ctx.c, reply: { status: () => undefined } });
  return op.kind === 'query' ? withInput.query(resolve as never) : withInput.mutation(resolve as never);
}

/** A tRPC router of the operations in `ops` (a module's record: `booking.create`, `booking.list`, …). */
export function routerOf<R extends OperationRecord>(ops: R) {
  const procedures: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(ops)) if (op.trpc !== false) procedures[name] = procedureOf(op);
  return router(procedures as ProceduresOf<R>);
}

type RoutersOf<T extends Record<string, OperationRecord>> = { [K in keyof T]: ReturnType<typeof routerOf<T[K]>> };

/** One router per domain: `{booking: bookingOperations, …}` → `{booking: routerOf(bookingOperations), …}`. */
export function routersOf<T extends Record<string, OperationRecord>>(domains: T): RoutersOf<T> {
  return Object.fromEntries(Object.entries(domains).map(([name, ops]) => [name, routerOf(ops)])) as RoutersOf<T>;
}
