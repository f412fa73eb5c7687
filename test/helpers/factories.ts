import type { Db } from '../../src/db/client';
import type { User } from '../../src/generated/prisma/client';

let n = 0;

/** Test players with readable intent: aPublicPlayer(db), aPrivatePlayer(db, {name}). */
export async function aPlayer(
  db: Db,
  over: Partial<Pick<User, 'name' | 'isPublic' | 'isAdmin' | 'gameId'>> = {},
): Promise<User> {
  const name = over.name ?? `player${++n}_${Math.random().toString(36).slice(2, 6)}`;
  return db.user.create({
    data: {
      name,
      nameKey: name.toLowerCase(),
      isPublic: over.isPublic ?? true,
      isAdmin: over.isAdmin ?? false,
      gameId: over.gameId ?? null,
    },
  });
}

export const aPublicPlayer = (db: Db, over: Partial<Pick<User, 'name' | 'gameId'>> = {}) =>
  aPlayer(db, { ...over, isPublic: true });
export const aPrivatePlayer = (db: Db, over: Partial<Pick<User, 'name' | 'gameId'>> = {}) =>
  aPlayer(db, { ...over, isPublic: false });
export const anAdmin = (db: Db) => aPlayer(db, { isAdmin: true });

/** follower follows following; approved = the private target approved the request. */
export async function follows(db: Db, follower: User, following: User, opts: { approved?: boolean } = {}) {
  return db.follow.create({
    data: { followerId: follower.id, followingId: following.id, approvedAt: opts.approved ? new Date() : null },
  });
}

/**
 * A player's best on a chart, stored the way an import leaves it (one batch, one play, the
 * derived BestScore row) — for read-side tests that do not exercise the importer. `bpi` is the
 * play's stored BPI (Score.bpi); the best's BPI is derived from the EX score on read.
 */
export async function withBestScore(
  db: Db,
  user: User,
  chartId: number,
  exScore: number,
  opts: { version?: string; bpi?: number | null; playedAt?: Date } = {},
) {
  const version = opts.version ?? '33';
  const playedAt = opts.playedAt ?? new Date();
  const batch = await db.importBatch.create({
    data: { userId: user.id, version, source: 'ROWS', rowCount: 1, updatedCount: 1 },
  });
  const score = await db.score.create({
    data: { userId: user.id, chartId, version, batchId: batch.id, exScore, bpi: opts.bpi ?? null, playedAt },
  });
  return db.bestScore.create({
    data: { userId: user.id, version, chartId, exScore, exScoreId: score.id, playedAt },
  });
}

/** Profile area: a PlayerVersionStatus row (per-version total BPI and arena status). */
export async function aVersionStatus(
  db: Db,
  user: User,
  version: string,
  data: Partial<{
    totalBpi: number;
    arenaClass: 'A1' | 'A2' | 'A3' | 'A4' | 'A5' | 'B1' | 'B2' | 'B3' | 'B4' | 'B5';
    arenaRank: number;
    area: string;
    gradeSp: string;
    gradeDp: string;
    bestArenaClass: 'A1' | 'A2' | 'A3' | 'A4' | 'A5';
    bestArenaClassAt: Date;
  }> = {},
) {
  return db.playerVersionStatus.create({ data: { userId: user.id, version, ...data } });
}

/** Profile area: one play (`bpi`: its stored Score.bpi) and the BestScore row it makes (bypasses the import pipeline). */
export async function aBestScoreRow(
  db: Db,
  user: User,
  chartId: number,
  exScore: number,
  opts: { version?: string; bpi?: number | null } = {},
) {
  const version = opts.version ?? '33';
  const batch = await db.importBatch.create({ data: { userId: user.id, version, source: 'ROWS', rowCount: 1 } });
  const score = await db.score.create({
    data: {
      userId: user.id,
      chartId,
      version,
      batchId: batch.id,
      exScore,
      bpi: opts.bpi ?? null,
      playedAt: new Date(),
    },
  });
  return db.bestScore.create({
    data: { userId: user.id, version, chartId, exScore, exScoreId: score.id, playedAt: score.playedAt },
  });
}

/** Songs area: a BestScore row only (rankings, popularity, profile song lists read nothing else). */
export async function aSongBestScore(
  db: Db,
  user: User,
  chartId: number,
  exScore: number,
  opts: { version?: string } = {},
) {
  return db.bestScore.create({
    data: { userId: user.id, version: opts.version ?? '33', chartId, exScore, exScoreId: 0, playedAt: new Date() },
  });
}

/**
 * Social area: one import batch of plays for a user, appending Score rows and raising BestScore
 * the way an import does (no BPI). Returns the batch id and the charts whose best changed.
 */
export async function aScoreImport(
  db: Db,
  user: User,
  plays: {
    chartId: number;
    exScore: number;
    playedAt?: Date;
    bpi?: number;
    clearLamp?: 'FAILED' | 'EASY_CLEAR' | 'CLEAR' | 'HARD_CLEAR' | 'EX_HARD_CLEAR' | 'FULLCOMBO_CLEAR';
  }[],
  opts: { version?: string } = {},
) {
  const version = opts.version ?? '33';
  const batch = await db.importBatch.create({
    data: { userId: user.id, version, source: 'ROWS', rowCount: plays.length },
  });
  const changed: number[] = [];
  const scores = [];
  for (const p of plays) {
    const playedAt = p.playedAt ?? new Date();
    const score = await db.score.create({
      data: {
        userId: user.id,
        chartId: p.chartId,
        version,
        batchId: batch.id,
        exScore: p.exScore,
        playedAt,
        bpi: p.bpi ?? null,
        clearLamp: p.clearLamp ?? null,
      },
    });
    scores.push(score);
    const best = await db.bestScore.findUnique({
      where: { userId_version_chartId: { userId: user.id, version, chartId: p.chartId } },
    });
    if (!best) {
      await db.bestScore.create({
        data: { userId: user.id, version, chartId: p.chartId, exScore: p.exScore, exScoreId: score.id, playedAt },
      });
      changed.push(p.chartId);
    } else if (p.exScore > best.exScore) {
      await db.bestScore.update({
        where: { userId_version_chartId: { userId: user.id, version, chartId: p.chartId } },
        data: { exScore: p.exScore, exScoreId: score.id, playedAt },
      });
      changed.push(p.chartId);
    }
  }
  return { batchId: batch.id, version, chartIds: [...new Set(changed)], scores };
}
