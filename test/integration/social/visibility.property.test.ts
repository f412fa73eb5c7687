/**
 * The one visibility rule (src/db/visibility.ts) against its pure definition, `hasAccess`
 * (src/domain/follow-state.ts), over random follow states (fast-check): four players, each public
 * or private, each ordered pair with no follow, a follow, or an approved follow, and maybe a
 * pending request. For every viewer (anonymous and each player) each SQL / Prisma form must
 * select exactly the players (or Follow rows) `hasAccess` grants. Runs on PGlite and PostgreSQL.
 */
import fc from 'fast-check';
import { Prisma } from '../../../src/generated/prisma/client';
import type { Db } from '../../../src/db/client';
import { visibleFollowWhere, visibleThroughFollow, visibleUser, visibleUserWhere } from '../../../src/db/visibility';
import { hasAccess, type FollowSnapshot } from '../../../src/domain/follow-state';
import { openTestDatabase } from '../../helpers/db';
import { aPlayer } from '../../helpers/factories';

const N = 4;
type Link = 'none' | 'follow' | 'approved';
interface World {
  isPublic: boolean[];
  /** links[i][j]: i → j (the diagonal is ignored: nobody follows themself) */
  links: Link[][];
  requests: boolean[][];
}

const world = fc.record({
  isPublic: fc.array(fc.boolean(), { minLength: N, maxLength: N }),
  links: fc.array(fc.array(fc.constantFrom<Link>('none', 'follow', 'approved'), { minLength: N, maxLength: N }), {
    minLength: N,
    maxLength: N,
  }),
  requests: fc.array(fc.array(fc.boolean(), { minLength: N, maxLength: N }), { minLength: N, maxLength: N }),
});

let handle: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;
const ids: string[] = [];

beforeAll(async () => {
  handle = await openTestDatabase();
  db = handle.prisma;
  for (let i = 0; i < N; i++) ids.push((await aPlayer(db, { name: `vis${i}` })).id);
});
afterAll(() => handle?.close());

/** The pure snapshot of viewer v (index, or null: anonymous) towards target t. */
function snapshot(w: World, v: number | null, t: number): FollowSnapshot {
  const link = v === null || v === t ? 'none' : w.links[v][t];
  return {
    isSelf: v === t,
    targetIsPublic: w.isPublic[t],
    follow: link === 'none' ? null : { approvedAt: link === 'approved' ? new Date(0) : null },
    hasPendingRequest: v !== null && v !== t && w.requests[v][t],
  };
}

async function store(w: World) {
  await db.follow.deleteMany({ where: { followerId: { in: ids } } });
  await db.followRequest.deleteMany({ where: { requesterId: { in: ids } } });
  for (let i = 0; i < N; i++) await db.user.update({ where: { id: ids[i] }, data: { isPublic: w.isPublic[i] } });
  const follows = [];
  const requests = [];
  for (let i = 0; i < N; i++) {
    for (let j = 0; j < N; j++) {
      if (i === j) continue;
      if (w.links[i][j] !== 'none')
        follows.push({
          followerId: ids[i],
          followingId: ids[j],
          approvedAt: w.links[i][j] === 'approved' ? new Date() : null,
        });
      if (w.requests[i][j]) requests.push({ requesterId: ids[i], targetId: ids[j] });
    }
  }
  if (follows.length) await db.follow.createMany({ data: follows });
  if (requests.length) await db.followRequest.createMany({ data: requests });
}

const sorted = (xs: Iterable<string>) => [...xs].sort();
const viewers: (number | null)[] = [null, ...Array.from({ length: N }, (_, i) => i)];

describe('the visibility rule in SQL equals hasAccess', () => {
  it('visibleUser, visibleUserWhere, visibleThroughFollow and visibleFollowWhere select what hasAccess grants', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        await store(w);
        const throughFollow = await db.$queryRaw<{ followerId: string; followingId: string }[]>`
          SELECT f."followerId", f."followingId" FROM "Follow" f JOIN "User" u ON u."id" = f."followingId"
           WHERE f."followerId" IN (${Prisma.join(ids)}) AND ${visibleThroughFollow('f', 'u')}`;
        for (const v of viewers) {
          const viewerId = v === null ? null : ids[v];
          const expected = sorted(ids.filter((_, t) => hasAccess(snapshot(w, v, t))));
          const sql = await db.$queryRaw<{ id: string }[]>`
            SELECT u."id" FROM "User" u WHERE u."id" IN (${Prisma.join(ids)}) AND ${visibleUser(viewerId, 'u')}`;
          expect({ viewer: v, form: 'visibleUser', ids: sorted(sql.map((r) => r.id)) }).toEqual({
            viewer: v,
            form: 'visibleUser',
            ids: expected,
          });
          const where = await db.user.findMany({
            where: { id: { in: ids }, ...visibleUserWhere(viewerId) },
            select: { id: true },
          });
          expect({ viewer: v, form: 'visibleUserWhere', ids: sorted(where.map((r) => r.id)) }).toEqual({
            viewer: v,
            form: 'visibleUserWhere',
            ids: expected,
          });
          if (v === null) continue;
          // Follow rows of v whose target v may see: the followed players hasAccess grants
          const followed = expected.filter((id) => ids.indexOf(id) !== v && w.links[v][ids.indexOf(id)] !== 'none');
          const joined = sorted(throughFollow.filter((r) => r.followerId === viewerId).map((r) => r.followingId));
          expect({ viewer: v, form: 'visibleThroughFollow', ids: joined }).toEqual({
            viewer: v,
            form: 'visibleThroughFollow',
            ids: followed,
          });
          const rows = await db.follow.findMany({
            where: { followerId: viewerId!, ...visibleFollowWhere(viewerId!) },
            select: { followingId: true },
          });
          expect({ viewer: v, form: 'visibleFollowWhere', ids: sorted(rows.map((r) => r.followingId)) }).toEqual({
            viewer: v,
            form: 'visibleFollowWhere',
            ids: followed,
          });
        }
      }),
      { numRuns: 40 },
    );
  });

  it('worked example: a private player is seen by themself and an approved follower only', async () => {
    // 0 private; 1 follows 0 approved; 2 follows 0 without approval (legacy); 3 only requested.
    const none: Link[] = ['none', 'none', 'none', 'none'];
    await store({
      isPublic: [false, true, true, true],
      links: [none, ['approved', 'none', 'none', 'none'], ['follow', 'none', 'none', 'none'], none],
      requests: [
        [false, false, false, false],
        [false, false, false, false],
        [false, false, false, false],
        [true, false, false, false],
      ],
    });
    const sees = async (v: string | null) =>
      (
        await db.$queryRaw<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM "User" u WHERE u."id" = ${ids[0]} AND ${visibleUser(v)}`
      )[0].n;
    expect([await sees(null), await sees(ids[0]), await sees(ids[1]), await sees(ids[2]), await sees(ids[3])]).toEqual([
      0, 1, 1, 0, 0,
    ]);
  });

  it('refuses an alias that is not a plain identifier', () => {
    expect(() => visibleUser(null, 'u; DROP TABLE "User"')).toThrow(/bad SQL alias/);
  });
});
