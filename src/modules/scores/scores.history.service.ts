/**
 * Scores over time: every stored play of a chart or song (newest first, or grouped by version) and
 * the bests across versions (best ever, one version against another). Reached as
 * `ctx.services.scores.history`.
 */
import { BPI_FLOOR, round2 } from '../../domain/bpi';
import { versionIndex } from '../../domain/constants';
import { availableIn } from '../../domain/totals';
import { badInput } from '../../errors';
import { requireVersion } from '../../graphql/args';
import type { AreaScope } from '../area';
import { byLevelTitle, chartFields, PLAY_SELECT, playData, snapshot, withCurrentBpi } from './plays';

type Scope = Pick<AreaScope, 'db' | 'catalogue'>;

export class ScoresHistoryService {
  constructor(private readonly s: Scope) {}

  /** Every stored play of the charts (all versions), newest play first. */
  async chartHistory(userId: string, chartIds: number[]) {
    const plays = await this.s.db.score.findMany({
      where: { userId, chartId: { in: chartIds } },
      select: PLAY_SELECT,
      orderBy: [{ playedAt: 'desc' }, { id: 'desc' }],
    });
    return plays.map((p) => playData(this.s.catalogue, p));
  }

  /**
   * Every stored play of one chart grouped by version, as the reference's history answers
   * (`{ [version]: plays }`): versions in game order (26 … 34, INF), plays newest first.
   */
  async chartHistoryByVersion(userId: string, chartId: number) {
    const plays = await this.chartHistory(userId, [chartId]);
    const groups = new Map<string, typeof plays>();
    for (const p of plays) {
      const list = groups.get(p.version);
      if (list) list.push(p);
      else groups.set(p.version, [p]);
    }
    return [...groups]
      .sort((a, b) => versionIndex(a[0]) - versionIndex(b[0]))
      .map(([version, list]) => ({ version, plays: list }));
  }

  /** Every stored play of all difficulties of one song. */
  songHistory(userId: string, songId: number) {
    return this.chartHistory(
      userId,
      [...this.s.catalogue.allCharts()].filter((c) => c.songId === songId).map((c) => c.id),
    );
  }

  /** Per chart, the best EX over versions (optionally excluding the current one). */
  async bestEver(userId: string, currentVersionArg: string, excludeCurrent: boolean) {
    const currentVersion = requireVersion(currentVersionArg, 'currentVersion');
    const cat = this.s.catalogue;
    const rows = await this.s.db.bestScore.findMany({
      where: { userId, ...(excludeCurrent ? { version: { not: currentVersion } } : {}) },
      orderBy: [{ exScore: 'desc' }, { playedAt: 'desc' }],
    });
    const best = new Map<number, (typeof rows)[number]>();
    for (const r of rows) if (!best.has(r.chartId)) best.set(r.chartId, r);
    const out = [];
    for (const r of best.values()) {
      const c = cat.chart(r.chartId);
      if (c)
        out.push({
          ...chartFields(c),
          bestExScore: r.exScore,
          bestBpi: cat.currentBpi(r.chartId, r.exScore),
          bestVersion: r.version,
        });
    }
    return out.sort(byLevelTitle);
  }

  /** My bests in `currentVersion` against `targetVersion` (charts with at least one side). */
  async versionComparison(
    userId: string,
    currentVersionArg: string,
    targetVersionArg: string,
    opts: { summaryDiffs?: boolean } = {},
  ) {
    const currentVersion = requireVersion(currentVersionArg, 'currentVersion');
    const targetVersion = requireVersion(targetVersionArg, 'targetVersion');
    if (currentVersion === targetVersion) {
      throw badInput('currentVersion and targetVersion must differ.', [
        { code: 'custom', path: ['targetVersion'], message: 'currentVersion and targetVersion must differ.' },
      ]);
    }
    const cat = this.s.catalogue;
    const rows = (
      await this.s.db.bestScore.findMany({ where: { userId, version: { in: [currentVersion, targetVersion] } } })
    ).map((r) => withCurrentBpi(cat, r));
    const cur = new Map(rows.filter((r) => r.version === currentVersion).map((r) => [r.chartId, r]));
    const prev = new Map(rows.filter((r) => r.version === targetVersion).map((r) => [r.chartId, r]));
    const out = [];
    for (const chartId of new Set([...cur.keys(), ...prev.keys()])) {
      const c = cat.chart(chartId);
      if (!c || !c.definition) continue;
      if (currentVersion !== 'INF' && !availableIn(c, currentVersion) && !prev.has(chartId)) continue;
      const a = cur.get(chartId);
      const b = prev.get(chartId);
      out.push({
        ...chartFields(c),
        current: a ? snapshot(a) : null,
        previous: b ? snapshot(b) : null,
        // both sides: current − previous; one side missing: null (the reference omits them).
        // summaryDiffs (logs' versionSummary, docs/domain/score-lists.md#version-summary): only current ⇒
        // EX = current, BPI = current + 15; no current ⇒ 0.
        exDiff: a && b ? a.exScore - b.exScore : opts.summaryDiffs ? (a ? a.exScore : 0) : null,
        bpiDiff:
          a && b
            ? round2((a.bpi ?? BPI_FLOOR) - (b.bpi ?? BPI_FLOOR))
            : opts.summaryDiffs
              ? a
                ? round2((a.bpi ?? BPI_FLOOR) - BPI_FLOOR)
                : 0
              : null,
      });
    }
    return out.sort(byLevelTitle);
  }
}
