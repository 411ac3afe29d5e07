/** A server logger whose lines a test can read back: to prove what is (and is not) logged. */
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '../../server/logger';

export function capturedLogger(level = 'debug'): { logger: Logger; text(): string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { logger: createLogger(level, sink), text: () => lines.join('') };
}
