/**
 * No import circles (docs/decisions/028-ticket-categories.md): the sign-up calls the orders module
 * (orders, tickets and payments), never the other way round, and no server file reaches itself
 * again through the imports that run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
// type-only imports vanish at build time and cannot order module initialisation: not counted
const IMPORT = /(?:import|export)\s+(?!type\s)[^'";]*?from\s+'([^']+)'|import\('([^']+)'\)/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate)) return candidate;
  return null;
}

function importGraph(dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sourceFiles(path.join(root, d)))) {
    const text = fs.readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2]!;
      const target = spec.startsWith('.') ? resolveImport(file, spec) : null;
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan), as paths from the root. */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(path.relative(root, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('imports', () => {
  const graph = importGraph(['server', 'shared']);

  it('no server or shared file imports itself back through another file at run time', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('the orders module never imports the sign-up (the sign-up calls orders)', () => {
    const ordersDir = path.join(root, 'server/modules/orders');
    const signup = path.join(root, 'server/modules/attendees/signup.service.ts');
    const offenders = [...graph].filter(([file, targets]) => file.startsWith(ordersDir) && targets.includes(signup)).map(([file]) => path.relative(root, file));
    expect(offenders).toEqual([]);
  });
});
