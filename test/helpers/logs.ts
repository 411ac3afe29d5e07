/** A server logger whose lines a test can read back: to prove what is (and is not) logged. */
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../server/logger';

/** `lines`: every line so far (the live array: `lines.length` marks a point to slice from). */
export function capturedLogger(level = 'debug'): { logger: Logger; lines: string[]; text(): string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { logger: createLogger(level, sink), lines, text: () => lines.join('') };
}
