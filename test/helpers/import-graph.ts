/**
 * The import graph of src/ (every `import`, `import type`, `export … from`, `import()` and
 * `require()` with a relative specifier), read with TypeScript's own pre-processor — no type
 * checking, so it takes well under a second.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const SRC = path.resolve(__dirname, '../../src');

/** File (relative to src/, forward slashes) → files it imports. */
export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'generated') sourceFiles(full, out);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolve(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

export const rel = (file: string, root = SRC) => path.relative(root, file).split(path.sep).join('/');

export function importGraph(root = SRC): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root)) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue; // packages
      const target = resolve(file, fileName);
      if (!target) throw new Error(`${rel(file, root)}: cannot resolve ${fileName}`);
      if (target.startsWith(root) && target.endsWith('.ts')) targets.add(rel(target, root));
    }
    graph.set(rel(file, root), [...targets].sort());
  }
  return graph;
}

/** Every import circle, each as a path a → b → … → a (one per strongly connected component). */
export function cycles(graph: ImportGraph): string[][] {
  // Tarjan's strongly connected components, then one concrete circle through each.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(comp);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return components.map((comp) => circleThrough(graph, new Set(comp)));
}

/** A shortest path from the component's first file back to itself, inside the component. */
function circleThrough(graph: ImportGraph, comp: Set<string>): string[] {
  const start = [...comp].sort()[0];
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!comp.has(w)) continue;
      if (w === start) {
        const pathBack = [v];
        while (pathBack[0] !== start) pathBack.unshift(prev.get(pathBack[0])!);
        return [...pathBack, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
