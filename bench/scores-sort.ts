/**
 * User.scores with every sort key over one player with 5,000 bests: a page of 50 at position 4,000
 * (reached by walking the keyset cursor: 40 pages of 100), p50 / p99 latency per key over HTTP,
 * sequential requests (one in flight), the server in its own process. Target: p99 < 50 ms on
 * PostgreSQL (issue #17).
 * Catalogue: a generated definitions file of 5,400 SP charts (1,800 songs × HYPER/ANOTHER/
 * LEGGENDARIA, levels 11–12, fixed and soflan BPMs, release versions 20–33); bests with varied EX
 * scores, lamps, misses and play times.
 *   BENCH_DB=postgresql npm run bench:scores-sort      (PGlite without BENCH_DB)
 */
import 'reflect-metadata';
import os from 'node:os';
import { openDatabase } from '../src/db/client';
import { importDefinitions } from '../src/db/definitions';
import { applyMigrations } from '../src/db/migrate';
import { ScoreSortKey } from '../src/domain/score-list';
import { benchDatabase, cpuMicros, fmt, percentile, record, startProcess } from './lib';

const SONGS = 1800;
const BESTS = 5000;
const AT = 4000;
const PAGE = 50;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const USER = 'bench-sort-player';

function definitions() {
  const body: Record<string, unknown>[] = [];
  for (let i = 0; i < SONGS; i++) {
    const bpm = i % 7 === 0 ? `${90 + (i % 60)}-${180 + (i % 100)}` : String(120 + (i % 100));
    for (const [code, level] of [
      ['3', 11],
      ['4', i % 2 ? 12 : 11],
      ['10', 12],
    ] as const) {
      const notes = 900 + ((i * 37 + Number(code) * 101) % 1300);
      const max = notes * 2;
      body.push({
        title: `Sort Bench ${String(i).padStart(4, '0')}`,
        difficulty: code,
        notes,
        bpm,
        textage: `${20 + (i % 14)}/s${i}.html`,
        difficultyLevel: String(level),
        dpLevel: '0',
        wr: Math.floor(max * 0.96),
        avg: Math.floor(max * 0.82),
        coef: -1,
      });
    }
  }
  return { version: 'sort-bench-1', requireVersion: '0', body };
}

async function main(): Promise<void> {
  const target = (process.env.BENCH_DB as 'postgresql' | undefined) ?? 'pglite';
  const bench = await benchDatabase('sort', target);
  const { dataDir, url } = bench;
  try {
    // 1. seed: catalogue, one player with 5,000 bests
    {
      const db = await openDatabase({ url, dataDir });
      try {
        await applyMigrations(db.adapterFactory);
        await importDefinitions(db.prisma, definitions());
        await db.prisma.user.create({ data: { id: USER, name: 'sortbench', nameKey: 'sortbench', isPublic: true } });
        const charts = await db.prisma.chart.findMany({ select: { id: true, notes: true }, orderBy: { id: 'asc' } });
        const lamps = ['FAILED', 'EASY_CLEAR', 'CLEAR', 'HARD_CLEAR', 'EX_HARD_CLEAR', 'FULLCOMBO_CLEAR'] as const;
        const bests = charts.slice(0, BESTS).map((c, k) => {
          const max = (c.notes ?? 1000) * 2;
          return {
            userId: USER,
            version: '33',
            chartId: c.id,
            exScore: Math.floor(max * (0.7 + ((k * 7919) % 2800) / 10000)),
            exScoreId: 0,
            clearLamp: lamps[k % lamps.length],
            missCount: (k * 13) % 90,
            playedAt: new Date(Date.UTC(2025, 0, 1) + ((k * 104729) % 300) * 86_400_000),
          };
        });
        for (let i = 0; i < bests.length; i += 1000)
          await db.prisma.bestScore.createMany({ data: bests.slice(i, i + 1000) });
      } finally {
        await db.close();
      }
    }
    console.log('seeded');
    // 2. the server in its own process
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: url ?? '',
      SEED_DEMO: 'false',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-000',
      RATE_LIMIT_EXPENSIVE_READS_PER_MINUTE: '0',
    };
    const server = await startProcess('src/server.ts', env, 4127, '/readyz');
    const rows: [string, string, string][] = [];
    try {
      const ask = async (sort: string, first: number, after: string | null) => {
        const query = `query($id: ID!, $after: String) { user(id: $id) { scores(version: "33", sort: ${sort}, order: DESC, first: ${first}, after: $after) { totalCount edges { node { chartId title exScore bpi clearLamp playedAt } } pageInfo { endCursor hasNextPage } } } }`;
        const r = await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables: { id: USER, after } }),
        });
        const body = await r.json();
        if (body.errors) throw new Error(JSON.stringify(body.errors).slice(0, 300));
        return body.data.user.scores;
      };
      let worst = 0;
      const keys = process.env.BENCH_KEYS
        ? (process.env.BENCH_KEYS.split(',') as ScoreSortKey[])
        : Object.values(ScoreSortKey);
      for (const key of keys) {
        // walk to position 4,000 with the cursor (40 pages of 100)
        let after: string | null = null;
        for (let i = 0; i < AT / 100; i++) after = (await ask(key, 100, after)).pageInfo.endCursor;
        const check = await ask(key, PAGE, after);
        if (check.totalCount !== BESTS || check.edges.length !== PAGE)
          throw new Error(`${key}: ${check.totalCount} bests, page of ${check.edges.length}`);
        for (let i = 0; i < 2; i++) await ask(key, PAGE, after); // warm-up
        const lat: number[] = [];
        const cpu0 = cpuMicros(server.proc.pid!);
        for (let i = 0; i < SAMPLES; i++) {
          const t = performance.now();
          await ask(key, PAGE, after);
          lat.push(performance.now() - t);
        }
        const p99 = percentile(lat, 99);
        const cpuMs = (cpuMicros(server.proc.pid!) - cpu0) / SAMPLES / 1000;
        worst = Math.max(worst, p99);
        console.log(
          `${key}: p50 ${fmt(percentile(lat, 50), 1)} ms, p99 ${fmt(p99, 1)} ms, server CPU ${fmt(cpuMs, 1)} ms/request`,
        );
        rows.push([
          `sort ${key}: page of ${PAGE} after ${AT}`,
          `p50 ${fmt(percentile(lat, 50), 1)} ms, p99 ${fmt(p99, 1)} ms; server CPU ${fmt(cpuMs, 1)} ms per request`,
          `p99 < 50 ms — ${p99 < 50 ? 'met' : 'NOT met'}`,
        ]);
      }
      rows.push(['worst p99 over the keys', `${fmt(worst, 1)} ms`, `< 50 ms — ${worst < 50 ? 'met' : 'NOT met'}`]);
    } finally {
      await server.stop();
    }
    const loadAvg = os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ');
    record(
      `User.scores sort keys at depth (${target === 'pglite' ? 'PGlite' : 'PostgreSQL'})`,
      `bench/scores-sort.ts: one player with ${fmt(BESTS)} bests (generated 5,400-chart catalogue), each ScoreSortKey DESC, page of ${PAGE} after position ${fmt(AT)} reached through the keyset cursor; ${SAMPLES} sequential HTTP requests per key after 2 warm-ups, server in its own process; load average during the run ${loadAvg} (shared machine)`,
      rows,
    );
  } finally {
    await bench.drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
