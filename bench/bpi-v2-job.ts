/**
 * The whole BPI V2 job at the scale scenario (`npm run bench:bpiv2:job`), on PostgreSQL: the
 * data set of `npm run bench:data` (bench/data.ts: BENCH_USERS players × BENCH_CHARTS real SP
 * charts of best scores in BENCH_SCALE_DB, default 10,000 × 1,000), then in this process the admin
 * job exactly as the CLI runs it (`app.bpiV2.run`: read the latest version's bests in batches of
 * 1,000 players, fit, held-out evaluation unless BENCH_BPIV2_EVAL=0, store the parameters in one
 * transaction, announce them) — timed per phase, wall and CPU (process.cpuUsage: the database's
 * share of the read is outside it), with the load average before and after. Target: < 60 s.
 */
import 'reflect-metadata';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { closeApp, createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import { LATEST_VERSION } from '../src/domain/constants';
import { createLogger } from '../src/logger';
import type { BpiV2Phase } from '../src/modules/catalogue/bpi-v2.job';
import { connectScaleDb, fmt, record, SCALE_DB } from './lib';

const TARGET_MS = 60_000;

export async function benchBpiV2Job(): Promise<void> {
  const { url, sql } = await connectScaleDb();
  const {
    rows: [size],
  } = await sql.query(
    `SELECT (SELECT count(DISTINCT "userId") FROM "BestScore" WHERE version = $1)::int AS users,
            (SELECT count(DISTINCT "chartId") FROM "BestScore" WHERE version = $1)::int AS charts,
            (SELECT count(*) FROM "BestScore" WHERE version = $1)::int AS bests`,
    [LATEST_VERSION],
  );
  await sql.end();
  if (!size.bests) throw new Error(`scale database ${SCALE_DB} is empty: run \`npm run bench:data\` first`);
  const withEval = process.env.BENCH_BPIV2_EVAL !== '0';

  const handle = await openDatabase({ url, poolMax: 4 });
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-000',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
  });
  const app = await createApp(config, handle, createLogger('warn'));
  try {
    const load0 = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ');
    const phases = new Map<BpiV2Phase, { wall: number; cpu: number }>();
    let phase: BpiV2Phase | null = null;
    let at = performance.now();
    let cpuAt = process.cpuUsage();
    const close = () => {
      if (!phase) return;
      const c = process.cpuUsage(cpuAt);
      const p = phases.get(phase) ?? { wall: 0, cpu: 0 };
      p.wall += performance.now() - at;
      p.cpu += (c.user + c.system) / 1000;
      phases.set(phase, p);
    };
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const rss0 = process.memoryUsage().rss;
    let rssPeak = rss0;
    const run = await app.bpiV2.run({
      version: LATEST_VERSION,
      evaluate: withEval,
      onProgress: (p, f) => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        if (p !== phase) {
          close();
          phase = p;
          at = performance.now();
          cpuAt = process.cpuUsage();
          process.stdout.write(`\n${p} `);
        }
        process.stdout.write(`\r${p} ${Math.round(f * 100)} %   `);
      },
    });
    close();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(cpu0);
    const cpu = (c.user + c.system) / 1000;
    process.stdout.write('\n');
    const load1 = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ');
    const ph = (names: BpiV2Phase[]) => {
      let w = 0;
      let u = 0;
      for (const n of names) {
        w += phases.get(n)?.wall ?? 0;
        u += phases.get(n)?.cpu ?? 0;
      }
      return `${fmt(w / 1000, 1)} s wall, ${fmt(u / 1000, 1)} s CPU`;
    };
    const f = (x: number | null, d = 3) => (x === null ? '—' : x.toFixed(d));
    const full = size.users >= 10_000 && size.charts >= 1_000;
    record(
      `BPI V2 job on PostgreSQL (${fmt(size.users)} players × ${fmt(size.charts)} charts${full ? '' : ' — reduced scale'})`,
      `bench/bpi-v2-job.ts: the data set of bench/data.ts in ${SCALE_DB} (scores generated with the V1 formula, not the V2 model); app.bpiV2.run in the bench process (as \`npm run cli -- bpi-v2 fit\`), evaluation ${withEval ? 'on' : 'off'}; load average (1/5/15 min) before ${load0}, after ${load1}`,
      [
        [
          'bests of the version (players × charts)',
          `${fmt(size.bests)} (${fmt(size.users)} × ${fmt(size.charts)})`,
          '10,000 × 1,000 (scale scenario)',
        ],
        [
          '**whole job** (read + fit + evaluation + store + announce)',
          `**${fmt(wall / 1000, 1)} s** wall, ${fmt(cpu / 1000, 1)} s CPU of this process`,
          `< 60 s — ${wall < TARGET_MS ? 'met' : 'NOT met'}${full ? '' : ' (at this reduced scale)'}`,
        ],
        ['read (batches of 1,000 players, array_agg per player)', ph(['read']), '—'],
        ['fit (prepare + iterations + anchors)', ph(['prepare', 'fit', 'anchor']), '—'],
        ['held-out evaluation (second fit on 90 % + predictions)', withEval ? ph(['evaluate']) : 'off', '—'],
        ['store (one transaction) + announcement', ph(['store']), '—'],
        [
          'fitted charts / players / bests used; iterations',
          `${run.charts} / ${fmt(run.players)} / ${fmt(run.observations)}; ${run.iterations} (converged: ${run.converged})`,
          '—',
        ],
        [
          'held out: RMSE of t, MAE of EX; vs V1: RMSE of t V2 / V1, BPI Spearman',
          `${f(run.heldOutRmseT)}, ${f(run.heldOutMaeEx, 1)}; ${f(run.v2RmseTVsV1)} / ${f(run.v1RmseT)}, ${f(run.bpiSpearman, 4)}`,
          '—',
        ],
        [
          'RSS before → peak (sampled at progress calls)',
          `${fmt(rss0 / 2 ** 20, 0)} → ${fmt(rssPeak / 2 ** 20, 0)} MiB`,
          '—',
        ],
      ],
    );
  } finally {
    await closeApp(app);
    await handle.close();
  }
}

if (require.main === module) {
  benchBpiV2Job().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
