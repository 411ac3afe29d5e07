/**
 * The message catalogues' check (docs/decisions/027-languages.md), run by test/unit/i18n.catalogue.test.ts
 * in `npm test`: every locale has exactly the English keys, every message is ICU that parses,
 * each translation has the English placeholders, tags and select branches, and every key is used
 * somewhere in the client. Visible text written in JSX is the lint's job (eslint.config.js).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isSelectElement, isStructurallySame, parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { LOCALES } from '../../shared/i18n/locales';

export type Catalogue = Record<string, string>;

export const CLIENT_DIR = path.resolve(import.meta.dirname, '../../client');
export const MESSAGES_DIR = path.join(CLIENT_DIR, 'i18n', 'messages');
/** Each bundle's folder of catalogues (client/i18n/i18n.ts loads them as separate chunks). */
export const BUNDLE_DIRS = { public: MESSAGES_DIR, door: path.join(CLIENT_DIR, 'i18n', 'door'), admin: path.join(CLIENT_DIR, 'i18n', 'admin') };
const CATALOGUE_DIRS = new Set(Object.values(BUNDLE_DIRS));
/** The server's catalogues (mails, invites, receipts, manifest, API errors), checked against the server's sources. */
export const SERVER_DIR = path.resolve(import.meta.dirname, '../../server');
export const SERVER_MESSAGES_DIR = path.join(SERVER_DIR, 'i18n', 'messages');

/** Every locale's catalogue as written (ICU strings), by locale. */
export function readCatalogues(dir = MESSAGES_DIR): Record<string, Catalogue> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  return Object.fromEntries(files.map((f) => [f.slice(0, -'.json'.length), JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Catalogue]));
}

/** The client's source text (pages, components, runtime), where keys are used as quoted literals. */
export function readClientSources(dir = CLIENT_DIR): string[] {
  return readSources(dir);
}

/** The server's source text, where its message keys are used as quoted literals. */
export function readServerSources(dir = SERVER_DIR): string[] {
  return readSources(dir);
}

function readSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!CATALOGUE_DIRS.has(full) && full !== SERVER_MESSAGES_DIR && entry.name !== 'public' && entry.name !== 'node_modules') out.push(...readSources(full));
    } else if (/\.(ts|tsx)$/.test(entry.name)) out.push(readFileSync(full, 'utf8'));
  }
  return out;
}

/** The `{x, select, …}` branches of a message, per variable: a translation must offer the same. */
function selectBranches(ast: MessageFormatElement[], out = new Map<string, string>()): Map<string, string> {
  for (const el of ast) {
    if (isSelectElement(el)) out.set(el.value, Object.keys(el.options).sort().join('|'));
    if ('options' in el) for (const option of Object.values(el.options)) selectBranches(option.value, out);
    if ('children' in el) selectBranches(el.children, out);
  }
  return out;
}

function parsed(message: string): MessageFormatElement[] | Error {
  try {
    return parse(message);
  } catch (error) {
    return error as Error;
  }
}

/** Every problem found, one sentence each; empty when the catalogues are complete and used. */
export function checkCatalogues(catalogues: Record<string, Catalogue>, sources: readonly string[], locales: readonly string[] = LOCALES): string[] {
  const problems: string[] = [];
  const english = catalogues.en;
  if (!english) return ['the English catalogue (en.json) is missing'];
  const keys = Object.keys(english);
  for (const locale of locales) if (!catalogues[locale]) problems.push(`${locale}: the catalogue is missing`);
  for (const locale of Object.keys(catalogues)) if (!locales.includes(locale)) problems.push(`${locale}: a catalogue for a locale svc does not offer`);

  for (const [locale, catalogue] of Object.entries(catalogues)) {
    for (const key of keys) if (!(key in catalogue)) problems.push(`${locale}: ${key} is missing`);
    for (const key of Object.keys(catalogue)) if (!(key in english)) problems.push(`${locale}: ${key} is not in the English catalogue`);
    for (const [key, message] of Object.entries(catalogue)) {
      const ast = parsed(message);
      if (ast instanceof Error) {
        problems.push(`${locale}: ${key} is not ICU MessageFormat (${ast.message})`);
        continue;
      }
      if (locale === 'en' || !(key in english)) continue;
      const source = parsed(english[key]!);
      if (source instanceof Error) continue;
      let same: { success: boolean; error?: Error };
      try {
        same = isStructurallySame(source, ast);
      } catch (error) {
        same = { success: false, error: error as Error };
      }
      if (!same.success) problems.push(`${locale}: ${key} has other placeholders than English (${same.error?.message ?? 'differs'})`);
      const wanted = selectBranches(source);
      const given = selectBranches(ast);
      for (const [variable, branches] of wanted)
        if (given.has(variable) && given.get(variable) !== branches)
          problems.push(`${locale}: ${key} selects {${variable}} on ${given.get(variable)} where English has ${branches}`);
    }
  }

  const text = sources.join('\n');
  for (const key of keys) if (!text.includes(`'${key}'`) && !text.includes(`"${key}"`)) problems.push(`en: ${key} is used nowhere in client/`);
  return problems;
}

/** A key two bundles both define: whichever loads last would win, so each key lives in one bundle. */
export function keysInTwoBundles(englishByBundle: Record<string, Catalogue>): string[] {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const [bundle, catalogue] of Object.entries(englishByBundle))
    for (const key of Object.keys(catalogue)) {
      const other = seen.get(key);
      if (other) problems.push(`${key} is in both the ${other} and the ${bundle} bundle`);
      else seen.set(key, bundle);
    }
  return problems;
}
