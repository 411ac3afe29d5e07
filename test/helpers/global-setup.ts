import { ensureClientBuilt } from '../../server/build-client';

// Build the PWA once per run, before any test file starts a server that serves it.
export default function setup(): void {
  ensureClientBuilt((line) => process.stdout.write(`${line}\n`));
}
