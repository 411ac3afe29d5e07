/** Settings hold the seller receipts and mails name beside net, tax and gross (docs/api.md#tickets). */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { apiClient } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

describe("the seller's name, address and tax id in Settings", () => {
  it('are empty until set, then saved trimmed and answered by GET /settings; other settings stay', async () => {
    const before = (await admin.api.get('/settings')).body;
    expect(before).toMatchObject({ sellerName: '', sellerAddress: '', sellerTaxId: '' });
    const res = await admin.api.patch('/settings', {
      sellerName: '  Hall & Co Ltd ',
      sellerAddress: '1 Market Street\nLondon N1 1AA',
      sellerTaxId: ' GB123456789 ',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, sellerName: 'Hall & Co Ltd', sellerAddress: '1 Market Street\nLondon N1 1AA', sellerTaxId: 'GB123456789' });
    expect((await admin.api.get('/settings')).body).toEqual(res.body);
    const rows = await queryRows<{ key: string; value: unknown }>(db(), sql`select key, value from svc_settings where key like 'seller_%' order by key`);
    expect(rows).toEqual([
      { key: 'seller_address', value: '1 Market Street\nLondon N1 1AA' },
      { key: 'seller_name', value: 'Hall & Co Ltd' },
      { key: 'seller_tax_id', value: 'GB123456789' },
    ]);
    // a PATCH without them leaves them; '' clears one
    expect((await admin.api.patch('/settings', { paymentHoldHours: 12 })).body.sellerTaxId).toBe('GB123456789');
    expect((await admin.api.patch('/settings', { sellerTaxId: '' })).body).toMatchObject({ sellerName: 'Hall & Co Ltd', sellerTaxId: '' });
  });

  it('too long a value is 400 svc_invalid_param naming the field, and nothing is stored', async () => {
    const res = await admin.api.patch('/settings', { sellerName: 'Fine', sellerTaxId: 'X'.repeat(65) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'svc_invalid_param', data: { params: { sellerTaxId: expect.any(String) } } });
    expect((await admin.api.get('/settings')).body.sellerName).not.toBe('Fine');
  });

  it('only an administrator reads or changes them', async () => {
    expect((await apiClient(srv.url).get('/settings')).status).toBe(401);
    expect((await apiClient(srv.url).patch('/settings', { sellerName: 'X' })).status).toBe(401);
  });
});
