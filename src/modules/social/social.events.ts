import { visibleThroughFollow } from '../../db/visibility';
import type { DomainEvents } from '../../events';
import type { AreaDeps } from '../area';
import { followersOvertaken } from '../rivals/rivals.service';
import { publishNotifications } from './notifications.service';

/** Most recent plays of one import pushed to followers' timeline subscriptions. */
export const TIMELINE_PUSH_LIMIT = 100;

/**
 * After an import committed: OVERTAKEN notifications and live timeline entries for the
 * importer's followers who may see the importer (public importer, or approved follower).
 *
 * OVERTAKEN, per changed chart: a follower whose best EX on the chart (same version) was at or
 * above the importer's previous best (none = −1) and is now below the importer's new best.
 */
export async function onScoresImported(
  app: Pick<AreaDeps, 'db' | 'pubsub'>,
  e: DomainEvents['scores.imported'],
): Promise<void> {
  if (!e.chartIds.length) return;
  const overtaken = await followersOvertaken(app.db, e);
  if (overtaken.length) {
    const rows = await app.db.notification.createManyAndReturn({
      data: overtaken.map((o) => ({
        recipientId: o.recipientId,
        type: 'OVERTAKEN' as const,
        actorId: e.userId,
        chartId: o.chartId,
        version: e.version,
        data: { actorExScore: o.newEx, myExScore: o.myEx },
      })),
      select: { id: true, recipientId: true },
    });
    publishNotifications(app, rows);
  }

  const [followers, plays] = await Promise.all([
    app.db.$queryRaw<{ followerId: string }[]>`
      SELECT f."followerId" FROM "Follow" f JOIN "User" u ON u."id" = f."followingId"
      WHERE f."followingId" = ${e.userId} AND ${visibleThroughFollow()}`,
    app.db.score.findMany({
      where: { batchId: e.batchId, userId: e.userId, chartId: { in: e.chartIds } },
      orderBy: [{ playedAt: 'desc' }, { id: 'desc' }],
      take: TIMELINE_PUSH_LIMIT,
      select: { id: true },
    }),
  ]);
  for (const { followerId } of followers) {
    for (const p of plays) app.pubsub.publish('TIMELINE_ENTRY_ADDED', followerId, { scoreId: p.id });
  }
}
