/**
 * Arena rank trend from the official arena snapshots (docs/domain/stats.md#arena-trend).
 *
 * Needs (two statements, whatever the number of snapshots):
 * 1. the player's entries: `SELECT s."id" AS "snapshotId", s."fetchedAt", e."arenaClass", e."rank",
 *    e."wins", e."a1Continue" FROM "ArenaEntry" e JOIN "ArenaSnapshot" s ON s."id" = e."snapshotId"
 *    WHERE e."gameId" = $gameId AND s."version" = $v [AND s."fetchedAt" BETWEEN $from AND $to]`
 *    (index ArenaEntry(gameId));
 * 2. the class sizes of those snapshots: `SELECT "snapshotId", "arenaClass", COUNT(*) FROM
 *    "ArenaEntry" WHERE "snapshotId" = ANY($ids) GROUP BY 1, 2` (index (snapshotId, arenaClass)).
 * A player without a game id has no trend (the service answers an empty one without SQL).
 *
 * Rules:
 * - One point per snapshot holding the player, oldest first (ties by snapshot id), with the
 *   JST date of the snapshot.
 * - classRank = the official rank within the class; globalRank = the number of players of the
 *   **same snapshot** in every better class (A1 … B5 order) + classRank. (The reference offsets
 *   every historical row with today's distribution.) null when the rank is unknown or the
 *   snapshot's class sizes are missing.
 * - best: the point with the best class, then the best (lowest) class rank, then the earliest.
 */
import { ARENA_ORDER, type ArenaClass } from '../constants';
import { jstDate } from './common';

export interface ArenaObservation {
  snapshotId: number;
  fetchedAt: Date;
  arenaClass: ArenaClass;
  rank: number | null;
  wins: number | null;
  a1Continue: number | null;
}

export interface SnapshotClassCount {
  snapshotId: number;
  arenaClass: ArenaClass;
  count: number;
}

export interface ArenaTrendPoint {
  snapshotId: number;
  fetchedAt: Date;
  date: string;
  arenaClass: ArenaClass;
  classRank: number | null;
  globalRank: number | null;
  /** players listed in the snapshot (null when its class sizes are missing) */
  players: number | null;
  wins: number | null;
  a1Continue: number | null;
}

export interface ArenaTrend {
  points: ArenaTrendPoint[];
  best: ArenaTrendPoint | null;
}

export function arenaTrend(
  observations: Iterable<ArenaObservation>,
  classCounts: Iterable<SnapshotClassCount>,
): ArenaTrend {
  const sizes = new Map<number, Map<ArenaClass, number>>();
  for (const r of classCounts) {
    let m = sizes.get(r.snapshotId);
    if (!m) sizes.set(r.snapshotId, (m = new Map()));
    m.set(r.arenaClass, (m.get(r.arenaClass) ?? 0) + Number(r.count));
  }
  const points = [...observations]
    .sort((a, b) => a.fetchedAt.getTime() - b.fetchedAt.getTime() || a.snapshotId - b.snapshotId)
    .map((o): ArenaTrendPoint => {
      const m = sizes.get(o.snapshotId);
      let above = 0;
      for (const c of ARENA_ORDER) {
        if (c === o.arenaClass) break;
        above += m?.get(c) ?? 0;
      }
      const players = m ? [...m.values()].reduce((a, b) => a + b, 0) : null;
      return {
        snapshotId: o.snapshotId,
        fetchedAt: o.fetchedAt,
        date: jstDate(o.fetchedAt),
        arenaClass: o.arenaClass,
        classRank: o.rank,
        globalRank: o.rank !== null && m ? above + o.rank : null,
        players,
        wins: o.wins,
        a1Continue: o.a1Continue,
      };
    });
  let best: ArenaTrendPoint | null = null;
  for (const p of points) {
    if (!best) best = p;
    else {
      const dc = ARENA_ORDER.indexOf(p.arenaClass) - ARENA_ORDER.indexOf(best.arenaClass);
      const dr = (p.classRank ?? Infinity) - (best.classRank ?? Infinity);
      if (dc < 0 || (dc === 0 && dr < 0)) best = p;
    }
  }
  return { points, best };
}
