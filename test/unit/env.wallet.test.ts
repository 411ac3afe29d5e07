/** The Apple Wallet variables (README "Apple Wallet"): all or none, each checked at start-up. */
import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from '../../server/env';
import { walletAvailable } from '../../server/wallet/pass';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const full = {
  SVC_WALLET_PASS_TYPE_ID: 'pass.com.example.tickets',
  SVC_WALLET_TEAM_ID: 'ABCDE12345',
  SVC_WALLET_SIGNER_CERT: PEM,
  SVC_WALLET_SIGNER_KEY: PEM,
  SVC_WALLET_WWDR: PEM,
};

describe('SVC_WALLET_*', () => {
  it('none set: no passes', () => {
    expect(walletAvailable(loadEnv({}))).toBe(false);
  });

  it('all set (PEM text): passes', () => {
    expect(walletAvailable(loadEnv(full))).toBe(true);
  });

  it('a partial set stops start-up naming what is missing', () => {
    const { SVC_WALLET_WWDR: _wwdr, SVC_WALLET_TEAM_ID: _team, ...partial } = full;
    expect(() => loadEnv(partial)).toThrow(EnvError);
    expect(() => loadEnv(partial)).toThrow(/SVC_WALLET_TEAM_ID, SVC_WALLET_WWDR: Apple Wallet needs all of/);
  });

  it('a malformed Pass Type ID or Team ID, or a path that does not exist, is refused', () => {
    expect(() => loadEnv({ ...full, SVC_WALLET_PASS_TYPE_ID: 'com.example.tickets' })).toThrow(/SVC_WALLET_PASS_TYPE_ID: must be a Pass Type ID/);
    expect(() => loadEnv({ ...full, SVC_WALLET_TEAM_ID: 'abc' })).toThrow(/SVC_WALLET_TEAM_ID: must be the 10-character Team ID/);
    expect(() => loadEnv({ ...full, SVC_WALLET_SIGNER_KEY: '/nonexistent/pass.key' })).toThrow(/SVC_WALLET_SIGNER_KEY: neither PEM text nor an existing file/);
  });
});
