/**
 * deleteAccount writes the account's JSON backup first (docs/domain/social.md#profile), in the
 * same operation: a backup that cannot be written refuses the deletion and deletes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { User } from '../../../src/generated/prisma/client';
import { aPublicPlayer, aScoreImport, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let dir: string;
let chartIds: number[];
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bpigraph-deletion-backups-'));
  s = await startTestServer({ env: { USER_DELETION_BACKUP_DIR: dir } });
  chartIds = (await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, take: 2, select: { id: true } })).map(
    (c) => c.id,
  );
});
afterAll(async () => {
  await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const DEL = 'mutation($c: String!) { deleteAccount(confirmName: $c) { deletedUserId message } }';

async function playerWithData(name: string) {
  const u = await aPublicPlayer(s.db.prisma, { name });
  const friend = await aPublicPlayer(s.db.prisma);
  const fan = await aPublicPlayer(s.db.prisma);
  await follows(s.db.prisma, u, friend);
  await follows(s.db.prisma, fan, u);
  await aScoreImport(s.db.prisma, u, [
    { chartId: chartIds[0], exScore: 1500 },
    { chartId: chartIds[1], exScore: 1200 },
  ]);
  const token = await s.tokenFor(u.id);
  const key = expectNoErrors<any>(await s.gql('mutation { issueApiKey { apiKey } }', {}, token)).issueApiKey
    .apiKey as string;
  const invite = expectNoErrors<any>(
    await s.gql('mutation($o: ID!) { issueFollowInvite(userId: $o) { token } }', { o: u.id }, token),
  ).issueFollowInvite.token as string;
  const list = expectNoErrors<any>(
    await s.gql(
      'mutation($o: ID!) { createFollowList(userId: $o, name: "rivals") { id: databaseId } }',
      { o: u.id },
      token,
    ),
  ).createFollowList;
  expectNoErrors(
    await s.gql(
      'mutation($o: ID!, $l: ID!, $m: ID!) { addFollowListMember(userId: $o, listId: $l, memberId: $m) { __typename } }',
      { o: u.id, l: String(list.id), m: friend.id },
      token,
    ),
  );
  return { u, friend, fan, token, key, invite, listId: list.id as number };
}

const backupsOf = (u: User) => fs.readdirSync(dir).filter((f) => f.startsWith(`${u.id}_`));

describe('account deletion backup', () => {
  it('writes the player data as JSON (keys left out) before deleting', async () => {
    const { u, friend, fan, token, key, invite, listId } = await playerWithData('BackedUp');
    const keyHash = (await s.db.prisma.apiKey.findUniqueOrThrow({ where: { userId: u.id } })).keyHash;
    const inviteRow = await s.db.prisma.followInviteToken.findUniqueOrThrow({ where: { userId: u.id } });
    const t0 = Date.now();
    expect(expectNoErrors<any>(await s.gql(DEL, { c: 'BackedUp' }, token)).deleteAccount.deletedUserId).toBe(u.id);
    expect(await s.db.prisma.user.count({ where: { id: u.id } })).toBe(0);

    const files = backupsOf(u);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^${u.id}_\\d+\\.json$`));
    const millis = Number(files[0].slice(u.id.length + 1, -5));
    expect(millis).toBeGreaterThanOrEqual(t0);
    const file = path.join(dir, files[0]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    const b = JSON.parse(text);
    expect(b).toMatchObject({ userId: u.id, user: { id: u.id, name: 'BackedUp' } });
    // two plays, two bests, one batch; one follow each way; the list with its member
    expect(b.scores.map((x: any) => [x.chartId, x.exScore])).toEqual([
      [chartIds[0], 1500],
      [chartIds[1], 1200],
    ]);
    expect(b.bestScores).toHaveLength(2);
    expect(b.batches).toHaveLength(1);
    expect(b.follows.following.map((f: any) => f.followingId)).toEqual([friend.id]);
    expect(b.follows.followers.map((f: any) => f.followerId)).toEqual([fan.id]);
    expect(b.followLists).toEqual([
      expect.objectContaining({
        id: listId,
        name: 'rivals',
        members: [expect.objectContaining({ userId: friend.id })],
      }),
    ]);
    // keys' values left out: the API key (its hash and hint), the invitation token (hash and sealed form)
    expect(Object.keys(b.apiKey).sort()).toEqual(['createdAt', 'lastUsedAt']);
    expect(Object.keys(b.followInvite)).toEqual(['createdAt']);
    for (const secret of [key, keyHash, key.slice(-4), invite, inviteRow.tokenHash]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/keyHash|tokenHash|secretHash|tokenSealed/);
  });

  it('an unwritable backup directory refuses the deletion: nothing is deleted, no file is left', async () => {
    const { u, token } = await playerWithData('NotBackedUp');
    const before = {
      scores: await s.db.prisma.score.count({ where: { userId: u.id } }),
      follows: await s.db.prisma.follow.count({ where: { OR: [{ followerId: u.id }, { followingId: u.id }] } }),
      lists: await s.db.prisma.followList.count({ where: { ownerId: u.id } }),
    };
    expect(before).toEqual({ scores: 2, follows: 2, lists: 1 });
    // a directory below a regular file cannot be created, even by root
    const blocker = path.join(dir, 'not-a-directory');
    fs.writeFileSync(blocker, 'x');
    const config = s.app.config as { userDeletionBackupDir: string };
    const saved = config.userDeletionBackupDir;
    config.userDeletionBackupDir = path.join(blocker, 'backups');
    try {
      const res = await s.gql(DEL, { c: 'NotBackedUp' }, token);
      expect(res.body.errors?.[0]).toMatchObject({
        message: 'The account could not be backed up before deletion; nothing was deleted. Try again later.',
        extensions: { code: 'SERVICE_UNAVAILABLE' },
      });
      expect(res.body.data?.deleteAccount ?? null).toBeNull();
    } finally {
      config.userDeletionBackupDir = saved;
    }
    expect(await s.db.prisma.user.count({ where: { id: u.id } })).toBe(1);
    expect({
      scores: await s.db.prisma.score.count({ where: { userId: u.id } }),
      follows: await s.db.prisma.follow.count({ where: { OR: [{ followerId: u.id }, { followingId: u.id }] } }),
      lists: await s.db.prisma.followList.count({ where: { ownerId: u.id } }),
    }).toEqual(before);
    expect(backupsOf(u)).toEqual([]);
    // the same token still works, and with a writable directory the deletion then succeeds
    expect(expectNoErrors<any>(await s.gql(DEL, { c: 'NotBackedUp' }, token)).deleteAccount.deletedUserId).toBe(u.id);
    expect(backupsOf(u)).toHaveLength(1);
  });
});
