import fs from 'node:fs/promises';
import path from 'node:path';
import type { Prisma } from '../../generated/prisma/client';
import { inOrder } from '../../db/in-order';

type Tx = Prisma.TransactionClient;

/** JSON with BigInt values as strings. */
const json = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));

/**
 * The account's data as one JSON document, chunk by chunk: the one builder of the account export
 * (GET /api/v1/me/export, docs/portability.md) and of the backup written before an account is
 * deleted (docs/domain/social.md#profile; read inside the deleting transaction, so the backup is
 * exactly what is deleted). Everything the account holds — profile and settings, statuses,
 * batches, bests, follows, requests, lists, notifications, notes, votes, memos, tower data — with
 * the plays last, read in keyset pages so a long history is never one string. Keys' values are left
 * out — no API key hash or hint, no client secret, no invitation token (hash or sealed form), no
 * OAuth codes or tokens — as the reference leaves out the API key and the invitation token.
 */
export async function* accountDocument(tx: Tx, userId: string, pageSize = 2000): AsyncGenerator<string> {
  const head = await accountSections(tx, userId);
  yield json(head).slice(0, -1) + ',"scores":[';
  let after = 0;
  let first = true;
  for (;;) {
    const page = await tx.score.findMany({
      where: { userId, id: { gt: after } },
      orderBy: { id: 'asc' },
      take: pageSize,
    });
    if (page.length === 0) break;
    after = page[page.length - 1].id;
    yield (first ? '\n' : ',\n') + page.map(json).join(',\n');
    first = false;
    if (page.length < pageSize) break;
  }
  yield '\n]}\n';
}

/** Everything but the plays (bounded: bests by the catalogue, the rest by the account's own activity). */
async function accountSections(tx: Tx, userId: string) {
  const [
    user,
    badge,
    identities,
    statuses,
    batches,
    bestScores,
    following,
    followers,
    sentRequests,
    receivedRequests,
    invite,
    followLists,
    listMemberships,
    notificationState,
    notifications,
    notes,
    noteUpvotes,
    patternVotes,
    optimizeMemos,
    towerEntries,
    radarCaches,
    apiKey,
    oauthClient,
  ] = await inOrder([
    tx.user.findUniqueOrThrow({ where: { id: userId } }),
    tx.userBadge.findUnique({ where: { userId } }),
    tx.externalIdentity.findMany({ where: { userId }, orderBy: [{ issuer: 'asc' }, { subject: 'asc' }] }),
    tx.playerVersionStatus.findMany({ where: { userId }, orderBy: { version: 'asc' } }),
    tx.importBatch.findMany({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    tx.bestScore.findMany({ where: { userId }, orderBy: [{ version: 'asc' }, { chartId: 'asc' }] }),
    tx.follow.findMany({ where: { followerId: userId }, orderBy: { createdAt: 'asc' } }),
    tx.follow.findMany({ where: { followingId: userId }, orderBy: { createdAt: 'asc' } }),
    tx.followRequest.findMany({ where: { requesterId: userId }, orderBy: { id: 'asc' } }),
    tx.followRequest.findMany({ where: { targetId: userId }, orderBy: { id: 'asc' } }),
    tx.followInviteToken.findUnique({ where: { userId }, select: { createdAt: true } }),
    tx.followList.findMany({
      where: { ownerId: userId },
      orderBy: { id: 'asc' },
      include: { members: { orderBy: { userId: 'asc' } } },
    }),
    tx.followListMember.findMany({
      where: { userId, list: { ownerId: { not: userId } } },
      orderBy: [{ listId: 'asc' }],
    }),
    tx.notificationReadState.findUnique({ where: { userId } }),
    tx.notification.findMany({ where: { recipientId: userId }, orderBy: { id: 'asc' } }),
    tx.songNote.findMany({ where: { authorId: userId }, orderBy: { id: 'asc' } }),
    tx.songNoteUpvote.findMany({ where: { userId }, orderBy: { noteId: 'asc' } }),
    tx.fingeringPatternVote.findMany({ where: { userId }, orderBy: [{ chartId: 'asc' }, { pattern: 'asc' }] }),
    tx.optimizeMemo.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
    tx.towerEntry.findMany({ where: { userId }, orderBy: [{ version: 'asc' }, { playDate: 'asc' }] }),
    tx.radarCache.findMany({ where: { userId }, orderBy: { version: 'asc' } }),
    // keys' values left out: the hash and the hint of the API key, the client secret
    tx.apiKey.findUnique({ where: { userId }, select: { createdAt: true, lastUsedAt: true } }),
    tx.oAuthClient.findUnique({
      where: { userId },
      select: { id: true, name: true, redirectUris: true, createdAt: true },
    }),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    userId,
    user,
    badge,
    identities,
    statuses,
    batches,
    bestScores,
    follows: { following, followers },
    followRequests: { sent: sentRequests, received: receivedRequests },
    followInvite: invite, // createdAt only: the token is left out
    followLists,
    listMemberships,
    notifications: { readState: notificationState, received: notifications },
    notes,
    noteUpvotes,
    patternVotes,
    optimizeMemos,
    towerEntries,
    radarCaches,
    apiKey,
    oauthClient,
  };
}

/**
 * Writes the backup (the account document's chunks) to `<dir>/<userId>_<epochMillis>.json`
 * (created exclusively, mode 0600, flushed to disk before returning). Throws when the directory
 * cannot be created or the file cannot be written: the caller then deletes nothing.
 */
export async function writeAccountBackup(dir: string, userId: string, chunks: AsyncIterable<string>): Promise<string> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${userId}_${Date.now()}.json`);
  const handle = await fs.open(file, 'wx', 0o600);
  try {
    for await (const chunk of chunks) await handle.write(chunk, null, 'utf8');
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.rm(file, { force: true }).catch(() => undefined);
    throw err;
  }
  await handle.close();
  return file;
}
