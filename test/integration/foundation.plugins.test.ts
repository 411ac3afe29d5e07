import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { startTestServer } from '../helpers/server';

const fixture = (name: string) => path.resolve('test/fixtures/plugins', name);

describe('SVC_PLUGINS', () => {
  it('loads each module at start-up and hands it the hooks and ctx of docs/api.md#plugins', async () => {
    const srv = await startTestServer({ env: { SVC_PLUGINS: fixture('records-hooks.mjs') } });
    try {
      const { hooks } = srv.server.ctx;
      expect(hooks.hasFilter('svc_currency')).toBe(true);
      expect(await hooks.applyFilters('svc_currency', 'USD')).toBe('eur');
      expect((globalThis as Record<string, unknown>).__svcPluginCtxKeys).toEqual(['SvcError', 'config', 'db', 'logger', 'mail', 'verifiers']);
    } finally {
      await srv.close();
    }
  });

  it('a plugin that throws stops start-up with a message naming the module', async () => {
    await expect(startTestServer({ env: { SVC_PLUGINS: fixture('throws.mjs') } })).rejects.toThrow(
      /Plugin ".*throws\.mjs" failed while registering: bad configuration value/,
    );
  });

  it('a module without a default-exported function stops start-up naming it', async () => {
    await expect(startTestServer({ env: { SVC_PLUGINS: fixture('no-default.mjs') } })).rejects.toThrow(/no-default\.mjs" must default-export a function/);
  });

  it('a module that cannot be found stops start-up naming it', async () => {
    await expect(startTestServer({ env: { SVC_PLUGINS: './nowhere/missing-plugin.mjs' } })).rejects.toThrow(/missing-plugin\.mjs" could not be loaded/);
  });
});
