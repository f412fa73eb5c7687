/**
 * The house's layering, checked on the import graph of src/ (type-only imports included: a
 * circle through types is still a circle for the reader):
 *  - no import circles between files;
 *  - layers only import downwards: domain (pure; with the error types) ← base (db, cluster, errors, config, events, answer-batch…) ← platform
 *    (src/graphql, src/jobs) ← areas (src/modules) ← application (app, schema, http, server,
 *    cors, rest, cli). So nothing in src/graphql or src/db imports an area;
 *  - between areas (src/modules/<area>/) dependencies go one way: no two-way pair, no circle.
 *    src/modules/shared (User, Chart, enums) imports no area; the kit (src/modules/area.ts) and
 *    the list (src/modules/index.ts) are not areas, and no area imports the list.
 * Each failure prints the offending path.
 */
import { cycles, importGraph, type ImportGraph } from '../helpers/import-graph';

const LAYERS: [name: string, test: RegExp][] = [
  ['domain', /^(domain\/|generated\/|errors\.ts$)/],
  [
    'base',
    /^(db\/|cluster\/|workers\/|logger\.ts$|config\.ts$|events\.ts$|ratelimit(-pg)?\.ts$|metrics\.ts$|tracing\.ts$|paths\.ts$|answer-batch\.ts$)/,
  ],
  ['platform', /^(graphql|jobs)\//],
  ['areas', /^modules\//],
  ['application', /^(app|schema|http|server|cors)\.ts$|^(rest|cli)\//],
];

function layerOf(file: string): number {
  const i = LAYERS.findIndex(([, re]) => re.test(file));
  if (i < 0) throw new Error(`${file} is in no layer: add it to LAYERS in test/unit/import-graph.test.ts`);
  return i;
}

/** The area of a file under src/modules (null for the kit and the list at the top of src/modules). */
function areaOf(file: string): string | null {
  const m = /^modules\/([^/]+)\//.exec(file);
  return m ? m[1] : null;
}

let graph: ImportGraph;
beforeAll(() => {
  graph = importGraph();
});

describe('import graph of src/', () => {
  it('reads the whole source tree', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('app.ts')).toEqual(expect.arrayContaining(['modules/index.ts']));
  });

  it('has no import circles', () => {
    const found = cycles(graph).map((c) => c.join(' → '));
    expect(found).toEqual([]);
  });

  it('imports only downwards through the layers (domain ← base ← platform ← areas ← application)', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      for (const t of targets) {
        if (layerOf(t) > layerOf(file))
          upward.push(`${file} (${LAYERS[layerOf(file)][0]}) → ${t} (${LAYERS[layerOf(t)][0]})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps the areas one-way: shared imports no area, no area imports the list, no two-way pair, no circle', () => {
    const problems: string[] = [];
    const edges = new Map<string, Map<string, string>>(); // area → area → an example import
    for (const [file, targets] of graph) {
      const from = areaOf(file);
      for (const t of targets) {
        const to = areaOf(t);
        if (t === 'modules/index.ts' && from) problems.push(`${file} → ${t}: areas do not import the list of areas`);
        if (!from || !to || from === to || to === 'shared') continue;
        if (from === 'shared') {
          problems.push(`${file} → ${t}: src/modules/shared imports no area`);
          continue;
        }
        let out = edges.get(from);
        if (!out) edges.set(from, (out = new Map()));
        if (!out.has(to)) out.set(to, `${file} → ${t}`);
      }
    }
    for (const [a, out] of edges) {
      for (const [b, example] of out) {
        const back = edges.get(b)?.get(a);
        if (back && a < b) problems.push(`two-way pair ${a} ↔ ${b}: ${example}; ${back}`);
      }
    }
    const areaGraph: ImportGraph = new Map([...edges].map(([a, out]) => [a, [...out.keys()]]));
    for (const circle of cycles(areaGraph)) {
      if (circle.length > 3)
        problems.push(
          `area circle ${circle.join(' → ')}: ${circle
            .slice(0, -1)
            .map((a, i) => edges.get(a)!.get(circle[i + 1]))
            .join('; ')}`,
        );
    }
    expect(problems).toEqual([]);
  });

  it('finds a circle when there is one (the checker itself)', () => {
    const g: ImportGraph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });
});
