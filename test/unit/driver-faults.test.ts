import { describe, expect, it } from 'vitest';
import { reconnectDelaySeconds } from '../../server/db/client';
import { isDriverConnectionLoss, isDatabaseUnavailable } from '../../server/db/driver-faults';
import { closeRowHoles } from '../../server/db/prepared';

const DRIVER = '/app/node_modules/postgres/src/connection.js';

function driverError(message: string, fields: Record<string, unknown>, frames = [`at ErrorResponse (file://${DRIVER}:815:30)`]): Error {
  const err = Object.assign(new Error(message), fields);
  err.stack = `Error: ${message}\n    ${frames.join('\n    ')}`;
  return err;
}

describe("the driver's failures on a lost connection, survived by the entry point", () => {
  it('the array-type lookup refused because PostgreSQL shut the connection (57P01) is one', () => {
    const err = driverError('terminating connection due to administrator command', {
      code: '57P01',
      query: 'select b.oid, b.typarray from pg_catalog.pg_type a …',
    });
    expect(isDriverConnectionLoss(err)).toBe(true);
  });

  it('a write queued for a closed socket (TypeError in nextWrite) is one', () => {
    const err = new TypeError("Cannot read properties of null (reading 'write')");
    err.stack = `TypeError: ${err.message}\n    at nextWrite (file://${DRIVER}:255:22)\n    at process.processImmediate (node:internal/timers:483:21)`;
    expect(isDriverConnectionLoss(err)).toBe(true);
  });

  it('a socket reset or a closed connection with no query of ours in it (the lookup, or a connection being opened) is one', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
    reset.stack = 'Error: read ECONNRESET\n    at TCP.onStreamRead (node:internal/stream_base_commons:218:20)';
    expect(isDriverConnectionLoss(reset)).toBe(true);
    expect(
      isDriverConnectionLoss(
        driverError('write CONNECTION_CLOSED 127.0.0.1:5432', { code: 'CONNECTION_CLOSED' }, [`at Socket.closed (file://${DRIVER}:453:57)`]),
      ),
    ).toBe(true);
  });

  it('anything else still ends the process: our own query failing, another TypeError, an error from elsewhere', () => {
    expect(isDriverConnectionLoss(driverError('terminating connection', { code: '57P01', query: 'select * from svc_events' }))).toBe(false);
    expect(isDriverConnectionLoss(driverError('duplicate key', { code: '23505', query: 'select from pg_catalog.pg_type' }))).toBe(false);
    const other = new TypeError("Cannot read properties of null (reading 'write')");
    other.stack = `TypeError: ${other.message}\n    at handler (file:///app/server/modules/x.ts:1:1)`;
    expect(isDriverConnectionLoss(other)).toBe(false);
    expect(isDriverConnectionLoss(Object.assign(new Error('x'), { code: '57P01', query: 'pg_catalog.pg_type' }))).toBe(false);
    expect(isDriverConnectionLoss('57P01')).toBe(false);
    const ourReset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    ourReset.stack = 'Error: read ECONNRESET\n    at send (file:///app/server/mail/mailer.ts:10:5)';
    expect(isDriverConnectionLoss(ourReset)).toBe(false);
    expect(
      isDriverConnectionLoss(
        driverError('write CONNECTION_CLOSED', { code: 'CONNECTION_CLOSED', query: 'select * from svc_events' }, [
          `at Socket.closed (file://${DRIVER}:453:57)`,
        ]),
      ),
    ).toBe(false);
  });
});

describe('reconnecting after PostgreSQL comes back', () => {
  it('tries a lost connection again after 0.1, 0.2, 0.4, 0.8 s, then every second, never the driver default of up to 20 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10, 50].map(reconnectDelaySeconds)).toEqual([0.1, 0.2, 0.4, 0.8, 1, 1, 1, 1]);
  });
});

describe('a request that loses its connection', () => {
  it('is told the service is unavailable when a connection code is anywhere in the cause chain (a driver error wrapped by the ORM)', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    expect(isDatabaseUnavailable(terminated)).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: terminated }))).toBe(true);
    expect(
      isDatabaseUnavailable(new Error('outer', { cause: new Error('Failed query', { cause: Object.assign(new Error('x'), { code: 'CONNECTION_CLOSED' }) }) })),
    ).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
  });

  it('is not when the query itself failed or the error has no connection code', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: Object.assign(new Error('syntax'), { code: '42601' }) }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable('57P01')).toBe(false);
    // what holes in a result made our code throw: a defect of ours to fix where rows are read, not an absent database
    expect(isDatabaseUnavailable(new TypeError('Iterator value undefined is not an entry object'))).toBe(false);
  });
});

/** A result as postgres.js builds it: an array with the statement's command and count beside the rows. */
function driverResult<T>(rows: Record<number, T>, length: number): T[] {
  const result = Object.defineProperties([] as T[], { command: { value: 'SELECT', writable: true }, count: { value: 2, writable: true } });
  for (const [index, row] of Object.entries(rows)) result[Number(index)] = row;
  result.length = length;
  return result;
}

describe('the rows of a statement after one that failed mid-answer on its connection', () => {
  it('leading holes (as many as rows the failed statement had received) are closed: its own rows, in order, from index 0', () => {
    const result = driverResult({ 3: { x: 1 }, 4: { x: 2 } }, 5);
    const closed = closeRowHoles(result);
    expect(closed).toBe(result);
    expect(closed).toEqual([{ x: 1 }, { x: 2 }]);
    expect(0 in closed).toBe(true);
    expect((closed as unknown as { command: string; count: number }).command).toBe('SELECT');
    expect((closed as unknown as { count: number }).count).toBe(2);
  });

  it("rows in drizzle's array form too", () => {
    expect(closeRowHoles(driverResult({ 1: [7, 'a'] }, 2))).toEqual([[7, 'a']]);
  });

  it('a result without holes and an empty one are left as they are; one of only holes becomes empty', () => {
    const dense = driverResult({ 0: { x: 1 }, 1: { x: 2 } }, 2);
    expect(closeRowHoles(dense)).toEqual([{ x: 1 }, { x: 2 }]);
    expect(closeRowHoles(driverResult({}, 0))).toEqual([]);
    expect(closeRowHoles(driverResult({}, 3))).toEqual([]);
    expect(closeRowHoles(undefined)).toBeUndefined();
  });
});
