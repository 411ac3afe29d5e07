/**
 * Apple Wallet passes (docs/api.md#wallet-pass, docs/decisions/038-wallet-pass.md): a signed
 * `.pkpass` (a zip of pass.json, the icons, manifest.json with each file's SHA-1, and signature,
 * a detached PKCS #7 signature of the manifest) made by passkit-generator with the Pass Type ID
 * certificate the `SVC_WALLET_*` variables name. Without them there are no passes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PKPass } from 'passkit-generator';
import { AppError } from '../../shared/errors';
import { fileDownload } from '../api/download';
import { isPem, type Env } from '../env';

export const PKPASS_TYPE = 'application/vnd.apple.pkpass';

/** The pass's icons and logo, made once from the app icon (client/public/icons/icon-512.png). */
const ASSET_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const ASSET_FILES = ['icon.png', 'icon@2x.png', 'icon@3x.png', 'logo.png', 'logo@2x.png'] as const;
let assets: Record<string, Buffer> | undefined;
function assetBuffers(): Record<string, Buffer> {
  assets ??= Object.fromEntries(ASSET_FILES.map((name) => [name, readFileSync(path.join(ASSET_DIR, name))]));
  return assets;
}

interface WalletSetup {
  passTypeIdentifier: string;
  teamIdentifier: string;
  certificates: { wwdr: Buffer; signerCert: Buffer; signerKey: Buffer; signerKeyPassphrase?: string };
}

/** PEM text as given, or the file a path names (read once per process). */
function pemOf(value: string): Buffer {
  return isPem(value) ? Buffer.from(value) : readFileSync(value);
}

const setups = new WeakMap<Env, WalletSetup>();

/** Whether this server makes Wallet passes: every `SVC_WALLET_*` variable is set (env.ts refuses a partial set). */
export function walletAvailable(env: Env): boolean {
  return Boolean(env.SVC_WALLET_PASS_TYPE_ID && env.SVC_WALLET_TEAM_ID && env.SVC_WALLET_SIGNER_CERT && env.SVC_WALLET_SIGNER_KEY && env.SVC_WALLET_WWDR);
}

/** The wallet setup, or 404 `svc_wallet_unavailable` when the server has none. */
function walletSetup(env: Env): WalletSetup {
  const known = setups.get(env);
  if (known) return known;
  if (!walletAvailable(env)) throw new AppError('svc_wallet_unavailable');
  const setup: WalletSetup = {
    passTypeIdentifier: env.SVC_WALLET_PASS_TYPE_ID!,
    teamIdentifier: env.SVC_WALLET_TEAM_ID!,
    certificates: {
      wwdr: pemOf(env.SVC_WALLET_WWDR!),
      signerCert: pemOf(env.SVC_WALLET_SIGNER_CERT!),
      signerKey: pemOf(env.SVC_WALLET_SIGNER_KEY!),
      ...(env.SVC_WALLET_SIGNER_KEY_PASSPHRASE ? { signerKeyPassphrase: env.SVC_WALLET_SIGNER_KEY_PASSPHRASE } : {}),
    },
  };
  setups.set(env, setup);
  return setup;
}

export interface PassField {
  key: string;
  label?: string;
  value: string;
}

/** What one pass shows, every text already in the holder's language. */
export interface PassContent {
  /** Stable for the ticket or booking: a pass downloaded again replaces the one in the Wallet. */
  serialNumber: string;
  /** What VoiceOver and the lock screen say of the pass. */
  description: string;
  organizationName: string;
  /** The organization's logo as `logo.png` / `logo@2x.png`, in place of the app's. */
  logo?: { png: Buffer; png2x: Buffer } | null;
  /** The door's QR: the ticket code (none for a booking, which no door scans). */
  barcode?: string;
  /** When the pass comes up on the lock screen: the start. */
  relevantDate: Date;
  primary: PassField[];
  secondary: PassField[];
  auxiliary: PassField[];
  back: PassField[];
}

/** The signed `.pkpass` of an event ticket style pass; 404 `svc_wallet_unavailable` without a wallet setup. */
export function makeWalletPass(env: Env, content: PassContent): Buffer {
  const setup = walletSetup(env);
  const passJson = {
    formatVersion: 1,
    passTypeIdentifier: setup.passTypeIdentifier,
    teamIdentifier: setup.teamIdentifier,
    serialNumber: content.serialNumber,
    description: content.description,
    organizationName: content.organizationName,
    eventTicket: {},
  };
  const logo: Record<string, Buffer> = content.logo ? { 'logo.png': content.logo.png, 'logo@2x.png': content.logo.png2x } : {};
  const pass = new PKPass({ 'pass.json': Buffer.from(JSON.stringify(passJson)), ...assetBuffers(), ...logo }, setup.certificates);
  pass.primaryFields.push(...content.primary);
  pass.secondaryFields.push(...content.secondary);
  pass.auxiliaryFields.push(...content.auxiliary);
  pass.backFields.push(...content.back);
  if (content.barcode) {
    pass.setBarcodes({ message: content.barcode, format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1', altText: content.barcode });
  }
  pass.setRelevantDate(content.relevantDate);
  return pass.getAsBuffer();
}

/** A pass as a download: a fixed file name (nothing of the holder's, nor the token, goes into a header), never cached. */
export function passDownload(pass: Buffer, filename: 'ticket.pkpass' | 'booking.pkpass'): Response {
  return fileDownload(pass, PKPASS_TYPE, filename);
}
