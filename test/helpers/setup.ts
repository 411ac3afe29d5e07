import { afterEach, vi } from 'vitest';

// A test that makes the code log an unexpected console.error fails (epic-stack habit):
// errors meant for operators go through pino, never the console.
const consoleError = vi.spyOn(console, 'error');
afterEach(() => {
  const calls = consoleError.mock.calls;
  consoleError.mockClear();
  if (calls.length > 0) {
    throw new Error(`console.error was called: ${calls.map((c) => c.map(String).join(' ')).join('\n')}`);
  }
});
