/**
 * Issue #33 item 2: the day / week / month details (`User.scoreDetails`) carry "my rank among followed
 * players before → after" per chart, as a single batch does (docs/domain/score-lists.md#logs-and-batches).
 *
 * Fixture (demo catalogue, version 33, two SP charts x and y of more than 1000 notes):
 *   followed rivals on x: p1 public 1500, p2 private approved 1700 → 2 counted;
 *   p3 private, followed without approval, 1900 and p4 public, not followed, 1800 → not counted.
 *   my batches (import time UTC → JST day; play time JST):
 *     b1 2025-03-03T01:00Z (JST 03-03)  x 1400, y 1000  played 03-02 20:00
 *     b2 2025-03-05T01:00Z (JST 03-05)  x 1550          played 03-04 20:00
 *     b3 2025-03-05T03:00Z (JST 03-05)  x 1650          played 03-04 21:00
 */
import { importScores } from '../../../src/modules/scores/import.service';
import type { User } from '../../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let me: User;
let x: { id: number; title: string; difficulty: any };
let y: { id: number; title: string; difficulty: any };

const imp = (userId: string, rows: { chart: typeof x; ex: number; at: string }[], now?: string) =>
  importScores(
    { db: s.db.prisma, catalogue: s.app.catalogue },
    {
      userId,
      version: '33',
      source: 'ROWS',
      now: now ? new Date(now) : undefined,
      rows: rows.map((r, i) => ({
        line: i + 1,
        title: r.chart.title,
        difficulty: r.chart.difficulty,
        exScore: r.ex,
        clearLamp: 'CLEAR' as const,
        missCount: 1,
        lastPlayed: r.at,
      })),
    },
  );

beforeAll(async () => {
  s = await startTestServer();
  const sp = [...s.app.catalogue.charts()].filter((c) => c.playStyle === 'SP' && c.definition && c.notes > 1000);
  [x, y] = sp;
  const db = s.db.prisma;
  me = await aPublicPlayer(db);
  const p1 = await aPublicPlayer(db);
  const p2 = await aPrivatePlayer(db);
  const p3 = await aPrivatePlayer(db);
  const p4 = await aPublicPlayer(db);
  await follows(db, me, p1);
  await follows(db, me, p2, { approved: true });
  await follows(db, me, p3);
  for (const [p, ex] of [
    [p1, 1500],
    [p2, 1700],
    [p3, 1900],
    [p4, 1800],
  ] as const)
    await imp(p.id, [{ chart: x, ex, at: '2025-01-01 10:00' }], '2025-01-01T01:00:00Z');
  await imp(
    me.id,
    [
      { chart: x, ex: 1400, at: '2025-03-02 20:00' },
      { chart: y, ex: 1000, at: '2025-03-02 20:00' },
    ],
    '2025-03-03T01:00:00Z',
  );
  await imp(me.id, [{ chart: x, ex: 1550, at: '2025-03-04 20:00' }], '2025-03-05T01:00:00Z');
  await imp(me.id, [{ chart: x, ex: 1650, at: '2025-03-04 21:00' }], '2025-03-05T03:00:00Z');
}, 120_000);
afterAll(() => s.close());

const Q = `query($id: ID!, $d: String!, $p: StatsPeriod, $b: TimeBasis) {
  user(id: $id) { scoreDetails(version: "33", date: $d, period: $p, basis: $b) {
    scores { chartId previous { exScore } current { exScore } rivalRankInfo { myRankBefore myRankAfter totalRivals } } } } }`;
const ranks = async (d: string, p: string, b: string, token?: string) => {
  const r = expectNoErrors<any>(await s.gql(Q, { id: me.id, d, p, b }, token));
  return Object.fromEntries(
    r.user.scoreDetails.scores.map((e: any) => [
      e.chartId === x.id ? 'x' : 'y',
      [e.previous?.exScore ?? null, e.current.exScore, e.rivalRankInfo],
    ]),
  );
};

describe('rank among rivals in period details (issue #33 item 2)', () => {
  it('a day by import time: before 1400 (2 rivals above → 3), after 1650 (only 1700 above → 2)', async () => {
    expect(await ranks('2025-03-05', 'DAY', 'CREATED_AT')).toEqual({
      x: [1400, 1650, { myRankBefore: 3, myRankAfter: 2, totalRivals: 2 }],
    });
  });

  it('the week (Mon 03-03 … Sun 03-09) by import time holds b1: x had no previous best → 2 + 1 = 3; y: no rival → null', async () => {
    expect(await ranks('2025-03-05', 'WEEK', 'CREATED_AT')).toEqual({
      x: [null, 1650, { myRankBefore: 3, myRankAfter: 2, totalRivals: 2 }],
      y: [null, 1000, null],
    });
  });

  it('by play time: the day 03-04 (1400 → 1650: 3 → 2) and the month of March (no previous: 3 → 2)', async () => {
    expect(await ranks('2025-03-04', 'DAY', 'PLAYED_AT')).toEqual({
      x: [1400, 1650, { myRankBefore: 3, myRankAfter: 2, totalRivals: 2 }],
    });
    expect((await ranks('2025-03-01', 'MONTH', 'PLAYED_AT')).x).toEqual([
      null,
      1650,
      { myRankBefore: 3, myRankAfter: 2, totalRivals: 2 },
    ]);
  });

  it('the first day alone: 1400 is below both rivals, before (none) 3 and after 1 + 2 = 3; a stranger reads the same counts', async () => {
    const stranger = await aPublicPlayer(s.db.prisma);
    expect((await ranks('2025-03-03', 'DAY', 'CREATED_AT', await s.tokenFor(stranger.id))).x).toEqual([
      null,
      1400,
      { myRankBefore: 3, myRankAfter: 3, totalRivals: 2 },
    ]);
  });
});
