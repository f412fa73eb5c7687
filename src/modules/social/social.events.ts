import type { App } from '../../app';
import type { DomainEvents } from '../../events';
import { Prisma } from '../../generated/prisma/client';
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
export async function onScoresImported(app: App, e: DomainEvents['scores.imported']): Promise<void> {
  if (!e.chartIds.length) return;
  const chartIds = Prisma.join(e.chartIds);
  const overtaken = await app.db.$queryRaw<{ recipientId: string; chartId: number; myEx: number; newEx: number }[]>`
    SELECT b."userId" AS "recipientId", nb."chartId", b."exScore" AS "myEx", nb."exScore" AS "newEx"
    FROM "BestScore" nb
    JOIN "User" imp ON imp."id" = nb."userId"
    JOIN "Follow" f ON f."followingId" = nb."userId"
    JOIN "BestScore" b ON b."userId" = f."followerId" AND b."version" = nb."version" AND b."chartId" = nb."chartId"
    LEFT JOIN LATERAL (
      SELECT max(p."exScore") AS ex FROM "Score" p
      WHERE p."userId" = nb."userId" AND p."chartId" = nb."chartId" AND p."version" = nb."version" AND p."batchId" <> ${e.batchId}
    ) prev ON true
    WHERE nb."userId" = ${e.userId} AND nb."version" = ${e.version} AND nb."chartId" IN (${chartIds})
      AND (imp."isPublic" OR f."approvedAt" IS NOT NULL)
      AND b."exScore" < nb."exScore" AND b."exScore" >= COALESCE(prev.ex, -1)`;
  if (overtaken.length) {
    const rows = await app.db.notification.createManyAndReturn({
      data: overtaken.map((o) => ({
        recipientId: o.recipientId,
        type: 'OVERTAKEN' as const,
        actorId: e.userId,
        chartId: Number(o.chartId),
        version: e.version,
        data: { actorExScore: Number(o.newEx), myExScore: Number(o.myEx) },
      })),
      select: { id: true, recipientId: true },
    });
    publishNotifications(app, rows);
  }

  const [followers, plays] = await Promise.all([
    app.db.$queryRaw<{ followerId: string }[]>`
      SELECT f."followerId" FROM "Follow" f JOIN "User" u ON u."id" = f."followingId"
      WHERE f."followingId" = ${e.userId} AND (u."isPublic" OR f."approvedAt" IS NOT NULL)`,
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

/** Registered from createApp. */
export function registerSocialListeners(app: App): void {
  app.events.on('scores.imported', (e) => onScoresImported(app, e));
}
