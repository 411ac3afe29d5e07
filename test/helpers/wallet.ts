/**
 * Apple Wallet certificates for tests (docs/api.md#wallet-pass), made with openssl as Apple's
 * chain is laid out: a root CA, a "WWDR" intermediate and a Pass Type ID signer whose key is
 * encrypted. `env` configures a server with them (the WWDR as PEM text, the others as paths).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const TEST_PASS_TYPE_ID = 'pass.test.svc.tickets';
export const TEST_TEAM_ID = 'ABCDE12345';
const KEY_PASSPHRASE = 'correct horse battery';

export interface WalletCertificates {
  /** The root the signature chains to (what `openssl smime -verify -CAfile` trusts). */
  root: string;
  env: Record<string, string>;
}

export function makeWalletCertificates(dir: string): WalletCertificates {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ca = ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'];
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key', '-out', 'root.pem', '-days', '2', '-subj', '/CN=Test Root CA', ...ca);
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'wwdr.key', '-out', 'wwdr.csr', '-subj', '/CN=Test WWDR G4');
  writeFileSync(path.join(dir, 'ca.ext'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'wwdr.csr',
    '-CA',
    'root.pem',
    '-CAkey',
    'root.key',
    '-CAcreateserial',
    '-out',
    'wwdr.pem',
    '-days',
    '2',
    '-extfile',
    'ca.ext',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-keyout',
    'signer.key',
    '-passout',
    `pass:${KEY_PASSPHRASE}`,
    '-out',
    'signer.csr',
    '-subj',
    `/UID=${TEST_PASS_TYPE_ID}/CN=Pass Type ID: ${TEST_PASS_TYPE_ID}/OU=${TEST_TEAM_ID}`,
  );
  openssl('x509', '-req', '-in', 'signer.csr', '-CA', 'wwdr.pem', '-CAkey', 'wwdr.key', '-CAcreateserial', '-out', 'signer.pem', '-days', '2');
  return {
    root: path.join(dir, 'root.pem'),
    env: {
      SVC_WALLET_PASS_TYPE_ID: TEST_PASS_TYPE_ID,
      SVC_WALLET_TEAM_ID: TEST_TEAM_ID,
      SVC_WALLET_SIGNER_CERT: path.join(dir, 'signer.pem'),
      SVC_WALLET_SIGNER_KEY: path.join(dir, 'signer.key'),
      SVC_WALLET_SIGNER_KEY_PASSPHRASE: KEY_PASSPHRASE,
      // one value as PEM text, the others as paths: both forms are read
      SVC_WALLET_WWDR: readFileSync(path.join(dir, 'wwdr.pem'), 'utf8'),
    },
  };
}

let unpacked = 0;
/** A pass's files (unzip into a fresh folder under `scratch`), by name. */
export function unpackPass(scratch: string, pkpass: Buffer): { dir: string; files: Map<string, Buffer> } {
  const dir = path.join(scratch, `pass-${process.pid}-${++unpacked}`);
  mkdirSync(dir);
  writeFileSync(`${dir}.pkpass`, pkpass);
  execFileSync('unzip', ['-q', `${dir}.pkpass`, '-d', dir]);
  const files = new Map<string, Buffer>();
  const walk = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub))) {
      const rel = sub ? `${sub}/${name}` : name;
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else files.set(rel, readFileSync(path.join(dir, rel)));
    }
  };
  walk('');
  return { dir, files };
}

/** `openssl smime -verify` of a pass's detached DER signature over its manifest, trusting `root` only. */
export function verifyPassSignature(root: string, signature: string, manifest: string): { ok: boolean; stderr: string } {
  const run = spawnSync(
    'openssl',
    ['smime', '-verify', '-binary', '-inform', 'DER', '-in', signature, '-content', manifest, '-CAfile', root, '-purpose', 'any', '-out', '/dev/null'],
    { encoding: 'utf8' },
  );
  return { ok: run.status === 0, stderr: run.stderr };
}
