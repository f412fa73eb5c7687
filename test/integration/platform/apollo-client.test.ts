import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import type { User } from '../../../src/generated/prisma/client';
import { toGlobalId } from '../../../src/graphql/global-id';
import { DASHBOARD_QUERY } from '../../../src/graphql/explorer-documents';
import { aPublicPlayer, aScoreImport, follows } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';

/**
 * A real client against the real server: Apollo Client (core, no React) with its normalized
 * InMemoryCache, over HTTP. No type policies: every object the queries reach carries `id`, so
 * the cache keys it as `<__typename>:<id>` and the same object reached through two paths is one
 * cache entry.
 */
/** A user's global id (`User.id`; the cache key is `User:<global id>`). */
const gid = (id: string) => toGlobalId('User', id);
let s: TestServer;
let me: User, rivalA: User, rivalB: User, fan: User;
let chartC: number, chartD: number;

function client(token?: string) {
  return new ApolloClient({
    link: new HttpLink({ uri: `${s.url}/graphql`, headers: token ? { authorization: `Bearer ${token}` } : {} }),
    cache: new InMemoryCache(),
  });
}

type Cache = Record<string, Record<string, any> | undefined>;

/** The value of a field stored with arguments (`followers({"first":10})`). */
function field(entry: Record<string, any> | undefined, name: string): any {
  const key = Object.keys(entry ?? {}).find((k) => k === name || k.startsWith(`${name}(`));
  return key === undefined ? undefined : entry![key];
}

beforeAll(async () => {
  s = await startTestServer();
  me = await aPublicPlayer(s.db.prisma, { name: 'ApolloMe' });
  rivalA = await aPublicPlayer(s.db.prisma, { name: 'ApolloRivalA' });
  rivalB = await aPublicPlayer(s.db.prisma, { name: 'ApolloRivalB' });
  fan = await aPublicPlayer(s.db.prisma, { name: 'ApolloFan' });
  // fan follows me and both rivals; I follow both rivals
  for (const target of [me, rivalA, rivalB]) await follows(s.db.prisma, fan, target);
  for (const target of [rivalA, rivalB]) await follows(s.db.prisma, me, target);
  const charts = await s.db.prisma.chart.findMany({ orderBy: { id: 'asc' }, take: 2 });
  [chartC, chartD] = charts.map((c) => c.id);
  // both rivals played chart C (two timeline entries on one chart); I played chart D
  await aScoreImport(s.db.prisma, rivalA, [
    { chartId: chartC, exScore: 1000, playedAt: new Date('2024-05-01T10:00:00Z') },
  ]);
  await aScoreImport(s.db.prisma, rivalB, [
    { chartId: chartC, exScore: 1100, playedAt: new Date('2024-05-02T10:00:00Z') },
  ]);
  await aScoreImport(s.db.prisma, me, [{ chartId: chartD, exScore: 900, playedAt: new Date('2024-05-03T10:00:00Z') }]);
});
afterAll(() => s.close());

describe('Apollo Client (InMemoryCache, HTTP) against the server', () => {
  it('runs the explorer’s dashboard query and normalizes what it reaches', async () => {
    const apollo = client(await s.tokenFor(me.id));
    const { data } = await apollo.query<any>({ query: gql(DASHBOARD_QUERY) });
    // set-up above: one follower (fan), two followed (the rivals), one best (chart D, 900)
    expect(data.me).toMatchObject({
      __typename: 'User',
      id: gid(me.id),
      name: 'ApolloMe',
      isPublic: true,
      follows: { followers: 1, following: 2 },
    });
    expect(data.me.followers.totalCount).toBe(1);
    expect(data.me.followers.edges.map((e: any) => e.node.id)).toEqual([gid(fan.id)]);
    expect(data.me.scores.totalCount).toBe(1);
    expect(data.me.scores.edges[0].node).toMatchObject({ chartId: chartD, exScore: 900 });

    const cache = apollo.cache.extract() as Cache;
    expect(cache.ROOT_QUERY!.me).toEqual({ __ref: `User:${gid(me.id)}` });
    expect(field(cache[`User:${gid(me.id)}`], 'followers').edges[0].node).toEqual({ __ref: `User:${gid(fan.id)}` });
    expect(cache[`User:${gid(fan.id)}`]).toMatchObject({ __typename: 'User', id: gid(fan.id), name: 'ApolloFan' });
    // TODO(#13, schema half): when score rows link to their chart (ScoreEntry.chart), add
    // `chart { id song { title } }` to the dashboard's scores and assert here that a chart reached
    // from two scores (mine and a rival's on the same chart) is one `Chart:<id>` entry.
  });

  it('keeps one User entry for a player reached through two follower lists', async () => {
    const apollo = client();
    const query = gql`
      query TwoPlayers($a: ID!, $b: ID!) {
        a: user(id: $a) {
          id
          name
          followers(first: 10) {
            edges {
              node {
                id
                name
              }
            }
          }
        }
        b: user(id: $b) {
          id
          name
          followers(first: 10) {
            edges {
              node {
                id
                name
              }
            }
          }
        }
      }
    `;
    const variables = { a: rivalA.id, b: rivalB.id };
    const { data } = await apollo.query<any>({ query, variables });
    // rival A and rival B are each followed by fan and by me
    expect(data.a.followers.edges.map((e: any) => e.node.name).sort()).toEqual(['ApolloFan', 'ApolloMe']);
    expect(data.b.followers.edges.map((e: any) => e.node.name).sort()).toEqual(['ApolloFan', 'ApolloMe']);
    const cache = apollo.cache.extract() as Cache;
    const refsA = field(cache[`User:${gid(rivalA.id)}`], 'followers').edges.map((e: any) => e.node.__ref);
    const refsB = field(cache[`User:${gid(rivalB.id)}`], 'followers').edges.map((e: any) => e.node.__ref);
    // both lists point at the same two entries
    expect(refsA.sort()).toEqual([`User:${gid(fan.id)}`, `User:${gid(me.id)}`].sort());
    expect(refsB.sort()).toEqual(refsA);
    // one entry: a change written once shows through both paths
    apollo.cache.writeFragment({
      id: `User:${gid(fan.id)}`,
      fragment: gql`
        fragment Renamed on User {
          name
        }
      `,
      data: { name: 'RenamedFan' },
    });
    const again = apollo.readQuery<any>({ query, variables })!;
    const names = (list: any) => list.followers.edges.map((e: any) => e.node.name).sort();
    expect(names(again.a)).toEqual(['ApolloMe', 'RenamedFan']);
    expect(names(again.b)).toEqual(['ApolloMe', 'RenamedFan']);
  });

  it('keeps one Chart entry for a chart reached from two plays (the timeline)', async () => {
    const apollo = client(await s.tokenFor(me.id));
    const { data } = await apollo.query<any>({
      query: gql`
        query Feed($me: ID!) {
          timeline(userId: $me, first: 10) {
            edges {
              node {
                id
                exScore
                user {
                  id
                  name
                }
                chart {
                  id
                  level
                  song {
                    id
                    title
                  }
                }
              }
            }
          }
        }
      `,
      variables: { me: me.id },
    });
    // newest first: rival B's 1100 (2 May), then rival A's 1000 (1 May), both on chart C
    expect(data.timeline.edges.map((e: any) => [e.node.user.id, e.node.exScore, e.node.chart.id])).toEqual([
      [gid(rivalB.id), 1100, toGlobalId('Chart', chartC)],
      [gid(rivalA.id), 1000, toGlobalId('Chart', chartC)],
    ]);
    const cache = apollo.cache.extract() as Cache;
    const entries = Object.keys(cache).filter((k) => k.startsWith('TimelineEntry:'));
    expect(entries).toHaveLength(2);
    expect(entries.map((k) => cache[k]!.chart)).toEqual([
      { __ref: `Chart:${toGlobalId('Chart', chartC)}` },
      { __ref: `Chart:${toGlobalId('Chart', chartC)}` },
    ]);
    expect(Object.keys(cache).filter((k) => k.startsWith('Chart:'))).toEqual([`Chart:${toGlobalId('Chart', chartC)}`]);
    expect(cache[`Chart:${toGlobalId('Chart', chartC)}`]!.song).toEqual({ __ref: expect.stringMatching(/^Song:/) });
  });
});
