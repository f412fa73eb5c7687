import type { User } from '../../../src/generated/prisma/client';
import { toGlobalId } from '../../../src/graphql/global-id';
import { aPrivatePlayer, aPublicPlayer, aScoreImport, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { sqlFor } from '../../helpers/sql-count';

/**
 * Relay object identification: every entity's `id` is an opaque global id, `node(id:)` /
 * `nodes(ids:)` refetch it under the rule table's NODE_RULES (the visibility of `user(id:)`), and
 * ID arguments take the global id back.
 */
let s: TestServer;
let pub: User, priv: User, fan: User, stranger: User;
let chartId: number, songId: number, privPlayId: number, privBatchId: string;

const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on User { uid: databaseId name } ... on Chart { databaseId level } ... on Song { databaseId title }
  ... on Play { databaseId exScore } ... on Batch { uid: databaseId songCount } ... on FollowList { databaseId name } ... on Notification { databaseId type } } }`;

beforeAll(async () => {
  s = await startTestServer();
  pub = await aPublicPlayer(s.db.prisma, { name: 'NodePub' });
  priv = await aPrivatePlayer(s.db.prisma, { name: 'NodePriv' });
  fan = await aPublicPlayer(s.db.prisma, { name: 'NodeFan' });
  stranger = await aPublicPlayer(s.db.prisma, { name: 'NodeStranger' });
  await follows(s.db.prisma, fan, priv, { approved: true });
  const chart = await s.db.prisma.chart.findFirstOrThrow({ orderBy: { id: 'asc' } });
  chartId = chart.id;
  songId = chart.songId;
  const imp = await aScoreImport(s.db.prisma, priv, [{ chartId, exScore: 1234 }]);
  privPlayId = imp.scores[0].id;
  privBatchId = imp.batchId;
});
afterAll(() => s.close());

async function nodeAs(id: string, who?: User) {
  return expectNoErrors<any>(await s.gql(NODE, { id }, who ? await s.tokenFor(who.id) : undefined)).node;
}

describe('node(id:)', () => {
  it('users: id is the global id, databaseId the database id, and node(id) refetches the same object', async () => {
    const got = expectNoErrors<any>(
      await s.gql('query($id: ID!) { user(id: $id) { id databaseId name } }', { id: pub.id }),
    ).user;
    expect(got).toEqual({ id: toGlobalId('User', pub.id), databaseId: pub.id, name: 'NodePub' });
    expect(await nodeAs(got.id)).toEqual({ __typename: 'User', id: got.id, uid: pub.id, name: 'NodePub' });
    // the global id is accepted where the database id is
    expect(
      expectNoErrors<any>(await s.gql('query($id: ID!) { user(id: $id) { name } }', { id: got.id })).user.name,
    ).toBe('NodePub');
  });

  it('a private player: null for anonymous and a stranger, the player for themself and an approved follower', async () => {
    const id = toGlobalId('User', priv.id);
    expect(await nodeAs(id)).toBeNull();
    expect(await nodeAs(id, stranger)).toBeNull();
    expect(await nodeAs(id, priv)).toMatchObject({ __typename: 'User', name: 'NodePriv' });
    expect(await nodeAs(id, fan)).toMatchObject({ __typename: 'User', name: 'NodePriv' });
  });

  it('a private player’s plays and batches follow the same rule', async () => {
    for (const [id, expected] of [
      [toGlobalId('Play', privPlayId), { __typename: 'Play', databaseId: privPlayId, exScore: 1234 }],
      [toGlobalId('Batch', privBatchId), { __typename: 'Batch', uid: privBatchId, songCount: 0 }],
    ] as const) {
      expect(await nodeAs(id)).toBeNull();
      expect(await nodeAs(id, stranger)).toBeNull();
      expect(await nodeAs(id, priv)).toMatchObject({ ...expected, id });
      expect(await nodeAs(id, fan)).toMatchObject({ ...expected, id });
    }
  });

  it('catalogue nodes are public; chart(id:) and song(id:) take global ids', async () => {
    const c = await nodeAs(toGlobalId('Chart', chartId));
    expect(c).toMatchObject({ __typename: 'Chart', id: toGlobalId('Chart', chartId), databaseId: chartId });
    const song = await nodeAs(toGlobalId('Song', songId));
    expect(song).toMatchObject({ __typename: 'Song', databaseId: songId });
    const viaArgs = expectNoErrors<any>(
      await s.gql('query($c: ID!, $s: ID!) { chart(id: $c) { databaseId song { id } } song(id: $s) { databaseId } }', {
        c: c.id,
        s: song.id,
      }),
    );
    expect(viaArgs).toEqual({ chart: { databaseId: chartId, song: { id: song.id } }, song: { databaseId: songId } });
  });

  it('follow lists and notifications: their owner only', async () => {
    const list = await s.db.prisma.followList.create({ data: { ownerId: fan.id, name: 'NodeList' } });
    const note = await s.db.prisma.notification.create({
      data: { recipientId: fan.id, actorId: stranger.id, type: 'NEW_FOLLOWER' },
    });
    for (const [id, expected] of [
      [toGlobalId('FollowList', list.id), { __typename: 'FollowList', name: 'NodeList' }],
      [toGlobalId('Notification', note.id), { __typename: 'Notification', type: 'NEW_FOLLOWER' }],
    ] as const) {
      expect(await nodeAs(id)).toBeNull();
      expect(await nodeAs(id, stranger)).toBeNull();
      expect(await nodeAs(id, fan)).toMatchObject({ ...expected, id });
    }
  });

  it('unknown, malformed and other-type ids are null, never an error', async () => {
    for (const id of [
      toGlobalId('User', '00000000-0000-0000-0000-000000000000'),
      toGlobalId('Chart', 999999),
      toGlobalId('Nope', 1),
      toGlobalId('Chart', 'x'),
      'garbage',
      String(chartId),
      pub.id,
    ]) {
      expect(await nodeAs(id)).toBeNull();
    }
  });
});

describe('nodes(ids:)', () => {
  it('answers in order, null where node(id:) is null', async () => {
    const ids = [toGlobalId('User', pub.id), toGlobalId('User', priv.id), 'garbage', toGlobalId('Chart', chartId)];
    const got = expectNoErrors<any>(
      await s.gql('query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', { ids }),
    ).nodes;
    expect(got).toEqual([{ __typename: 'User', id: ids[0] }, null, null, { __typename: 'Chart', id: ids[3] }]);
  });

  it('loads a batch of nodes with the same statements as one of each type', async () => {
    const players = [];
    for (let i = 0; i < 12; i++) players.push(await aPublicPlayer(s.db.prisma, { name: `NodeBulk${i}` }));
    const charts = await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, take: 12 });
    const q = 'query($ids: [ID!]!) { nodes(ids: $ids) { id ... on User { name } ... on Chart { level } } }';
    const one = await sqlFor(s, q, { ids: [toGlobalId('User', players[0].id), toGlobalId('Chart', charts[0].id)] });
    const many = await sqlFor(s, q, {
      ids: [...players.map((p) => toGlobalId('User', p.id)), ...charts.map((c) => toGlobalId('Chart', c.id))],
    });
    expect(many.data.nodes.filter(Boolean)).toHaveLength(24);
    expect(many.count).toBe(one.count);
  });

  it('refuses more than 100 ids (BAD_USER_INPUT naming ids)', async () => {
    const res = await s.gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: Array.from({ length: 101 }, (_, i) => toGlobalId('Chart', i + 1)),
    });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.body.errors[0])).toContain('ids');
  });
});
