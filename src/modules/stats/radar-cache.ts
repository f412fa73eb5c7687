/**
 * The radar cache: the radar of a player's bests computed live, and the RadarCache rows the radar
 * ranking reads, refreshed after each import or batch deletion and by the recompute job (index.ts).
 */
import { PlayStyle } from '../../domain/constants';
import { chartInVersion, computeRadar, type RadarValues } from '../../domain/radar';
import type { AreaDeps } from '../area';
import { lockPlayers } from '../scores/totals.service';
import { retryTransaction } from '../../db/retry';

/** The radar of a player's bests in a version (the values of User.compare.radar and of the RadarCache rows). */
export function liveRadar(
  cat: AreaDeps['catalogue'],
  version: string,
  bests: readonly { chartId: number; exScore: number }[],
): RadarValues {
  const bpis = new Map<number, number | null>();
  for (const b of bests) {
    const c = cat.chart(b.chartId);
    if (c?.playStyle === PlayStyle.SP && c.radarCategory) bpis.set(b.chartId, cat.currentBpi(b.chartId, b.exScore));
  }
  const valid = [...cat.charts()].filter(
    (c) => c.playStyle === PlayStyle.SP && c.radarCategory && chartInVersion(c, version),
  );
  return computeRadar(valid, bpis, (id) => cat.chart(id)?.radarCategory);
}

/**
 * Keeps the RadarCache row of (player, version) equal to the live radar: run after an import or a
 * batch deletion (events) and by the recompute job after a definitions update. A player without
 * bests loses their row (not ranked).
 */
export async function refreshRadarCache(
  deps: Pick<AreaDeps, 'db' | 'catalogue'>,
  userIds: readonly string[],
  version: string,
): Promise<void> {
  if (!userIds.length) return;
  // Under the players' import locks (lockPlayers, sorted), bests read inside the transaction: a
  // refresh that lost a race to a later import's refresh never writes an older radar over it.
  await retryTransaction(() =>
    deps.db.$transaction(
      async (tx) => {
        await lockPlayers(tx, userIds);
        const bests = await tx.bestScore.findMany({
          where: { userId: { in: [...userIds] }, version },
          select: { userId: true, chartId: true, exScore: true },
        });
        const byUser = new Map<string, { chartId: number; exScore: number }[]>();
        for (const b of bests) {
          const l = byUser.get(b.userId);
          if (l) l.push(b);
          else byUser.set(b.userId, [b]);
        }
        const empty = userIds.filter((u) => !byUser.has(u));
        if (empty.length) await tx.radarCache.deleteMany({ where: { version, userId: { in: empty } } });
        for (const [userId, list] of byUser) {
          const v = liveRadar(deps.catalogue, version, list);
          const data = {
            notes: v.NOTES,
            chord: v.CHORD,
            peak: v.PEAK,
            charge: v.CHARGE,
            scratch: v.SCRATCH,
            soflan: v.SOFLAN,
          };
          await tx.radarCache.upsert({
            where: { userId_version: { userId, version } },
            create: { userId, version, ...data },
            update: data,
          });
        }
      },
      { timeout: 60_000 },
    ),
  );
}
