/**
 * Optimizer time only (issue #16's p99 target), without the greedy comparison of bench/optimizer.ts:
 * the same 100 generated players (same seed, same generator), target = current total + 5, flexible,
 * for maxSteps 30 and 400; per plan wall and CPU time (process.cpuUsage), and per player the plan's
 * EX total and steps written as JSON lines, so two versions of the optimizer can be compared
 * player by player (plans must be identical).
 *
 *   node -r @swc-node/register bench/optimizer-time.ts [--out file.jsonl] [--players 1,5,17] [--repeat k]
 *   (--repeat k: each plan k times; the summary takes per plan the least wall and least CPU time)
 *   BENCH_OPT_PLAYERS=100 (players generated), BENCH_OPT_MAX_STEPS=30,400
 *   --compare a.jsonl b.jsonl   compares two outputs (EX totals, then steps) and exits 1 on a difference
 */
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { validateOptimizeInput, type OptimizeSettings } from '../src/domain/optimizer/input';
import { optimizePlan } from '../src/domain/optimizer/plan';
import { loadCharts, makePlayer } from './optimizer';
import { seededRandom } from './optimizer-greedy';

const SEED = 20250915;

function validated(input: Parameters<typeof validateOptimizeInput>[0]): OptimizeSettings {
  const v = validateOptimizeInput(input);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return v.value;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};

interface Row {
  player: number;
  maxSteps: number;
  achievable: boolean;
  totalEx: number;
  maxAchievableBpi: number | null;
  provenOptimal: boolean;
  capTotalBpi: number;
  steps: string;
  wall: number;
  cpu: number;
}

function compare(a: string, b: string): void {
  const read = (f: string) =>
    new Map(
      fs
        .readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Row)
        .map((r) => [`${r.player}/${r.maxSteps}`, r]),
    );
  const ra = read(a);
  const rb = read(b);
  let exDiff = 0;
  let stepDiff = 0;
  for (const [k, x] of ra) {
    const y = rb.get(k);
    if (!y) {
      console.log(`${k}: missing in ${b}`);
      exDiff++;
      continue;
    }
    if (x.totalEx !== y.totalEx || x.achievable !== y.achievable || x.maxAchievableBpi !== y.maxAchievableBpi) {
      console.log(`${k}: EX ${x.totalEx} vs ${y.totalEx} (achievable ${x.achievable} vs ${y.achievable})`);
      exDiff++;
    } else if (x.steps !== y.steps) stepDiff++;
  }
  console.log(
    `${ra.size} plans compared: ${exDiff} with a different EX total / reach, ${stepDiff} with the same EX but other steps`,
  );
  process.exit(exDiff > 0 ? 1 : 0);
}

function main(): void {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (args[0] === '--compare') return compare(args[1], args[2]);
  const count = Number(process.env.BENCH_OPT_PLAYERS ?? 100);
  const maxStepsList = (process.env.BENCH_OPT_MAX_STEPS ?? '30,400').split(',').map(Number);
  const only = opt('--players')?.split(',').map(Number);
  const repeat = Number(opt('--repeat') ?? 1);
  const out = opt('--out');
  const { charts, radarCharts } = loadCharts();
  const rng = seededRandom(SEED);
  const players = Array.from({ length: count }, () => makePlayer(charts, radarCharts, rng));
  optimizePlan(players[0].set, validated({ targetBpi: 50, maxSteps: 400 }), players[0].radar); // warm-up (JIT)
  const rows: Row[] = [];
  const load0 = os.loadavg();
  players.forEach((p, k) => {
    if (only && !only.includes(k)) return;
    const current = optimizePlan(p.set, validated({ targetBpi: 100 }), p.radar).currentTotalBpi;
    const target = Math.min(100, Math.round((current + 5) * 100) / 100);
    for (const maxSteps of maxStepsList) {
      const settings = validated({ targetBpi: target, maxSteps });
      for (let r = 0; r < repeat; r++) {
        const c0 = process.cpuUsage();
        const w0 = performance.now();
        const res = optimizePlan(p.set, settings, p.radar);
        const wall = performance.now() - w0;
        const c = process.cpuUsage(c0);
        rows.push({
          player: k,
          maxSteps,
          achievable: res.achievable,
          totalEx: res.totalExScoreGap,
          maxAchievableBpi: res.maxAchievableBpi,
          provenOptimal: res.provenOptimal,
          capTotalBpi: res.capTotalBpi,
          steps: res.steps.map((s) => `${s.chartId}:${s.toExScore}`).join(','),
          wall,
          cpu: (c.user + c.system) / 1000,
        });
        if (process.env.BENCH_VERBOSE)
          console.log(
            `player ${k} maxSteps ${maxSteps}: ${res.totalExScoreGap} EX, ${wall.toFixed(0)} ms wall, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU`,
          );
      }
    }
  });
  if (out) fs.writeFileSync(out, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  for (const maxSteps of maxStepsList) {
    // With --repeat k: per plan the least wall and the least CPU time of its k runs (a shared machine adds, never removes).
    const byPlan = new Map<number, Row>();
    for (const r of rows.filter((x) => x.maxSteps === maxSteps)) {
      const m = byPlan.get(r.player);
      byPlan.set(r.player, m ? { ...m, wall: Math.min(m.wall, r.wall), cpu: Math.min(m.cpu, r.cpu) } : r);
    }
    const rs = [...byPlan.values()];
    const w = rs.map((r) => r.wall);
    const c = rs.map((r) => r.cpu);
    const slow = [...rs]
      .sort((a, b) => b.cpu - a.cpu)
      .slice(0, 5)
      .map((r) => `${r.player} (${r.cpu.toFixed(0)} ms)`);
    console.log(
      `maxSteps ${maxSteps}: ${rs.length} plans; wall p50 ${quantile(w, 0.5).toFixed(1)} / p99 ${quantile(w, 0.99).toFixed(1)} / max ${Math.max(...w).toFixed(1)} ms; CPU p50 ${quantile(c, 0.5).toFixed(1)} / p99 ${quantile(c, 0.99).toFixed(1)} / max ${Math.max(...c).toFixed(1)} ms; proven optimal ${rs.filter((r) => r.provenOptimal).length}; slowest (CPU) ${slow.join(', ')}`,
    );
  }
  console.log(
    `load average ${load0.map((x) => x.toFixed(2)).join(' / ')} → ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')} (1 / 5 / 15 min)`,
  );
}

main();
