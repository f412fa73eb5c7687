/**
 * The BPI V2 fit as an admin job (issue #19 part 2): reads the bests of one game version (default
 * the latest), fits the charts of the current definitions vintage (src/domain/bpi-v2: fitBpiV2 for
 * the parameters, evaluateBpiV2 for the held-out quality), stores the parameters of the vintage in
 * ONE transaction (replacing the vintage's previous ones) and announces them (cache `bpiV2`: every
 * process's catalogue reloads its V2 parameters). Re-runnable.
 *
 * One run at a time across the cluster: a run holds its cluster lock (a PostgreSQL advisory lock,
 * src/cluster/lock.ts); `start` on a second process answers false, `run` (the CLI) waits. Progress
 * (phase and fraction) goes to the run's BpiV2FitRun row at every phase change and at most every
 * 500 ms. The fit and the evaluation (CPU work) run in a worker thread (bpi-v2.compute.ts), so
 * the process keeps serving and writing progress meanwhile.
 */
import type { Db } from '../../db/client';
import type { ClusterCaches } from '../../cluster/caches';
import { LocalLock, LockedRuns, type ClusterLock } from '../../cluster/lock';
import { PLAYERS_WITH_BESTS } from '../../db/queries';
import { LATEST_VERSION } from '../../domain/constants';
import { MIN_PLAYERS_PER_CHART, ScoreMatrixBuilder, type ChartInfo } from '../../domain/bpi-v2';
import { computeBpiV2Async } from './bpi-v2.compute';
import type { BpiV2FitRun, Prisma } from '../../generated/prisma/client';
import type { Logger } from '../../logger';
import { badInput } from '../../errors';
import type { Catalogue } from './catalogue';

/** The cache of the fitted parameters (Catalogue.loadBpiV2): `caches.changed(BPI_V2_CACHE)` reloads them everywhere. */
export const BPI_V2_CACHE = 'bpiV2';

/** Players per read of the bests (one statement each: chart ids and EX scores aggregated per player). */
const READ_BATCH_USERS = 1000;
const PROGRESS_WRITE_MS = 500;

export type BpiV2Phase = 'read' | 'prepare' | 'fit' | 'anchor' | 'evaluate' | 'store';

/** Where each phase lies on the run's 0…1 progress (with evaluation; without it the fit takes its share). */
const SHARES = { read: [0, 0.1], fit: [0.1, 0.5], evaluate: [0.5, 0.95], store: [0.95, 1] } as const;

export interface BpiV2RunOptions {
  /** game version whose bests are read (default: the latest) */
  version?: string | null;
  /** run the held-out evaluation too (a second fit on 90 % of the bests; default true) */
  evaluate?: boolean;
  /** charts with fewer fitted players get no parameters (default MIN_PLAYERS_PER_CHART = 30) */
  minPlayersPerChart?: number;
  onProgress?: (phase: BpiV2Phase, fraction: number) => void;
}

export class BpiV2Job {
  private readonly runs: LockedRuns;
  private lastWrite = 0;

  constructor(
    private readonly deps: { db: Db; catalogue: Catalogue; caches: Pick<ClusterCaches, 'changed'>; log?: Logger },
    private readonly opts: { lock?: ClusterLock; instanceId?: string } = {},
  ) {
    this.runs = new LockedRuns(opts.lock ?? new LocalLock(), (err) =>
      this.deps.log?.error({ err }, 'bpi v2 lock unavailable'),
    );
  }

  /**
   * Starts a run in the background; false when one is already running (in any process of the
   * cluster). The start answers once the run's row exists, so a status read right after shows it.
   */
  start(options: BpiV2RunOptions = {}): Promise<boolean> {
    this.check(options);
    return this.runs.start((started) => this.runLocked(options, started));
  }

  /** Runs to the end in the foreground (throws on failure); waits first when another process runs it (`onWait` is told). */
  async run(options: BpiV2RunOptions = {}, onWait?: () => void): Promise<BpiV2FitRun> {
    this.check(options);
    return this.runs.runNow(() => this.runLocked(options), onWait);
  }

  /** Waits for this process's background run (if any). */
  wait(): Promise<void> {
    return this.runs.wait();
  }

  /**
   * The latest run of any vintage as the cluster sees it (null: never run). A row left `running`
   * by a process that died without finishing reads as failed ("interrupted").
   */
  async status(): Promise<BpiV2FitRun | null> {
    const row = await this.deps.db.bpiV2FitRun.findFirst({ orderBy: { id: 'desc' } });
    if (!row || row.status !== 'running') return row;
    if (this.runs.running || (await this.runs.lock.isHeld())) return row;
    return { ...row, status: 'failed', error: row.error ?? 'interrupted (the process running it stopped)' };
  }

  /** The run whose parameters are in force: the latest succeeded run of the current vintage (null: none). */
  inForce(): Promise<BpiV2FitRun | null> {
    const vintage = this.deps.catalogue.definitionsVersion;
    if (!vintage) return Promise.resolve(null);
    return this.deps.db.bpiV2FitRun.findFirst({
      where: { definitionsVersion: vintage, status: 'succeeded' },
      orderBy: { id: 'desc' },
    });
  }

  private check(o: BpiV2RunOptions): void {
    if (!this.deps.catalogue.definitionsVersion)
      throw badInput('No definitions have been imported: nothing to fit the BPI V2 of');
    const m = o.minPlayersPerChart;
    if (m !== undefined && !(Number.isInteger(m) && m >= 3)) {
      throw badInput('minPlayersPerChart must be an integer of at least 3', [
        { code: 'too_small', path: ['minPlayersPerChart'], message: 'at least 3' },
      ]);
    }
  }

  private async runLocked(options: BpiV2RunOptions, onCreated?: () => void): Promise<BpiV2FitRun> {
    const { db, catalogue, log } = this.deps;
    const version = options.version ?? LATEST_VERSION;
    const withEval = options.evaluate ?? true;
    await catalogue.reload(); // the vintage and charts as committed now
    const vintage = catalogue.definitionsVersion;
    if (!vintage) throw badInput('No definitions have been imported: nothing to fit the BPI V2 of');
    const run = await db.bpiV2FitRun.create({
      data: {
        definitionsVersion: vintage,
        gameVersion: version,
        status: 'running',
        phase: 'read',
        holder: this.opts.instanceId ?? null,
      },
    });
    onCreated?.();
    let phase: BpiV2Phase = 'read';
    let fraction = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const report = (p: BpiV2Phase, f: number, force = false) => {
      const changed = p !== phase;
      phase = p;
      fraction = Math.max(fraction, Math.min(1, f));
      options.onProgress?.(phase, fraction);
      const now = Date.now();
      if (!force && !changed && now - this.lastWrite < PROGRESS_WRITE_MS) return;
      this.lastWrite = now;
      const data = { phase, progress: fraction };
      writing = writing
        .then(() => db.bpiV2FitRun.update({ where: { id: run.id }, data }))
        .catch((err) => log?.warn({ err }, 'bpi v2 progress not stored'));
    };
    const scale = (range: readonly [number, number], f: number) => range[0] + (range[1] - range[0]) * f;
    const fitRange: readonly [number, number] = withEval ? SHARES.fit : [SHARES.fit[0], SHARES.evaluate[1]];

    try {
      report('read', 0, true);
      // --- charts of the vintage: every chart with a note count; the definition's kaiden average and WR when it has one
      const chartIds: number[] = [];
      const infos: ChartInfo[] = [];
      const index = new Map<number, number>();
      for (const c of catalogue.charts()) {
        const notes = c.definition?.notes ?? c.notes;
        if (!(notes > 0)) continue;
        index.set(c.id, infos.length);
        chartIds.push(c.id);
        infos.push({
          notes,
          kaidenAvg: c.definition?.kaidenAvg ?? null,
          wr: c.definition?.wr ?? null,
          coef: c.definition?.coef ?? null,
        });
      }

      // --- the bests: players of the version (loose index scan), then per batch chart ids and EX scores per player
      const users = (await db.$queryRawUnsafe<{ userId: string }[]>(`${PLAYERS_WITH_BESTS} ORDER BY 1`, version)).map(
        (r) => r.userId,
      );
      const builder = new ScoreMatrixBuilder(users.length, infos.length);
      let bestsRead = 0;
      for (let i = 0; i < users.length; i += READ_BATCH_USERS) {
        const ids = users.slice(i, i + READ_BATCH_USERS);
        const rows = await db.$queryRawUnsafe<{ userId: string; chartIds: number[]; exScores: number[] }[]>(
          `SELECT "userId", array_agg("chartId") AS "chartIds", array_agg("exScore") AS "exScores"
             FROM "BestScore" WHERE "version" = $1 AND "userId" = ANY($2::text[]) GROUP BY "userId"`,
          version,
          ids,
        );
        const at = new Map(ids.map((id, k) => [id, i + k]));
        for (const r of rows) {
          const p = at.get(r.userId)!;
          for (let k = 0; k < r.chartIds.length; k++) {
            const j = index.get(r.chartIds[k]);
            bestsRead++;
            if (j !== undefined) builder.add(p, j, r.exScores[k]);
          }
        }
        report('read', scale(SHARES.read, Math.min(users.length, i + READ_BATCH_USERS) / Math.max(1, users.length)));
      }
      const matrix = builder.build();
      await writing;

      // --- the fit (all bests) and the held-out evaluation (a second fit on 90 %): in a worker thread when possible
      const { fit, evaluation: ev } = await computeBpiV2Async(
        {
          matrix,
          charts: infos,
          minPlayersPerChart: options.minPlayersPerChart ?? MIN_PLAYERS_PER_CHART,
          evaluate: withEval,
        },
        (p, f, stage) => report(p, stage === 'evaluate' ? scale(SHARES.evaluate, f) : scale(fitRange, f)),
      );
      await writing;
      if (fit.fittedCharts === 0) {
        // nothing to store: the vintage keeps the parameters it has (a wrong version must not wipe them)
        throw badInput(
          `No chart has ${options.minPlayersPerChart ?? MIN_PLAYERS_PER_CHART} fitted players among the bests of version ${version} (${bestsRead} bests read): nothing stored`,
        );
      }
      report('store', SHARES.store[0], true);
      await writing;

      // --- store: the vintage's parameters replaced and the run finished, in one transaction
      const rows: Prisma.BpiV2ChartParamsCreateManyInput[] = [];
      for (let j = 0; j < fit.charts.length; j++) {
        const c = fit.charts[j];
        if (!c) continue;
        rows.push({
          definitionsVersion: vintage,
          chartId: chartIds[j],
          runId: run.id,
          players: c.players,
          mu: c.mu,
          sigma: c.sigma,
          omega: c.omega,
          seMu: c.seMu,
          seSigma: c.seSigma,
          z0: c.params.z0,
          z100: c.params.z100,
          gamma: c.params.gamma,
          zKaiden: finite(c.zKaiden),
          zWr: finite(c.zWr),
          wrAnchored: c.wrAnchored,
        });
      }
      const v1 = ev?.v1Comparison;
      const done = await db.$transaction(
        async (tx) => {
          await tx.bpiV2ChartParams.deleteMany({ where: { definitionsVersion: vintage } });
          for (let k = 0; k < rows.length; k += 5000)
            await tx.bpiV2ChartParams.createMany({ data: rows.slice(k, k + 5000) });
          return tx.bpiV2FitRun.update({
            where: { id: run.id },
            data: {
              status: 'succeeded',
              phase: 'store',
              progress: 1,
              finishedAt: new Date(),
              bestsRead,
              observations: fit.observations,
              players: fit.players,
              charts: fit.fittedCharts,
              iterations: fit.iterations,
              converged: fit.converged,
              z0: finite(fit.anchors.z0),
              gap: finite(fit.anchors.gap),
              rmseT: finite(fit.rmseT),
              r2WithinChart: finite(fit.r2WithinChart),
              heldOutObservations: ev?.heldOut.observations ?? null,
              heldOutRmseT: finite(ev?.heldOut.rmseT),
              heldOutMaeEx: finite(ev?.heldOut.maeEx),
              heldOutR2: finite(ev?.heldOut.r2WithinChart),
              v1Observations: v1?.v2.observations ?? null,
              v2RmseTVsV1: finite(v1?.v2.rmseT),
              v1RmseT: finite(v1?.v1.rmseT),
              v2MaeExVsV1: finite(v1?.v2.maeEx),
              v1MaeEx: finite(v1?.v1.maeEx),
              bpiRmse: finite(v1?.bpiRmse),
              bpiMeanDiff: finite(v1?.bpiMeanDiff),
              bpiSpearman: finite(v1?.bpiSpearman),
            },
          });
        },
        { timeout: 300_000, maxWait: 30_000 },
      );
      options.onProgress?.('store', 1);
      await this.deps.caches.changed(BPI_V2_CACHE, { definitionsVersion: vintage });
      log?.info({ vintage, version, charts: fit.fittedCharts, players: fit.players }, 'bpi v2 fit stored');
      return done;
    } catch (err) {
      log?.error({ err }, 'bpi v2 fit failed');
      await writing;
      await db.bpiV2FitRun
        .update({
          where: { id: run.id },
          data: { status: 'failed', finishedAt: new Date(), error: (err as Error).message },
        })
        .catch((e) => log?.warn({ err: e }, 'bpi v2 failure not stored'));
      throw err;
    }
  }
}

const finite = (x: number | null | undefined): number | null =>
  typeof x === 'number' && Number.isFinite(x) ? x : null;
