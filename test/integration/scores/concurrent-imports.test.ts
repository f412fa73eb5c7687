/**
 * Imports at once, through the API: N players × 2 overlapping exports each, all sent together
 * (the two imports of one player race each other; different players race on the same charts,
 * including charts none of them has yet, learned by several imports at once). Every request
 * succeeds (no deadlock surfaces, no INTERNAL), and the state equals the same imports run one by
 * one for "shadow" players: bests (per-field maxima over all rows — the oracle below), totals,
 * radar rows, the followers' OVERTAKEN notifications; the rank blocks equal their rebuild from the
 * bests. PGlite and PostgreSQL.
 */
import { aPublicPlayer, follows, withBestScore } from '../../helpers/factories';
import {
  bestsOf,
  derivedOf,
  expectedBests,
  IMPORT_ROWS,
  rankBlocksVsRebuild,
  raceRows,
  type RaceChart,
  type RaceRow,
} from '../../helpers/import-race';
import { startTestServer, type TestServer } from '../../helpers/server';

const VERSION = '33';
const PLAYERS = 4;

describe('concurrent imports', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('2 × N overlapping imports at once leave the state of the same imports one by one', async () => {
    const known: RaceChart[] = [...s.app.catalogue.charts()]
      .filter((c) => c.playStyle === 'SP' && c.definition && c.level === 12)
      .sort((a, b) => a.id - b.id)
      .slice(0, 8)
      .map((c) => ({ title: c.title, difficulty: c.difficulty, level: c.level, maxEx: c.notes * 2 }));
    expect(known).toHaveLength(8);
    // three charts no catalogue holds: learned by whichever import comes first
    const unknown: RaceChart[] = [1, 2, 3].map((i) => ({
      title: `Race Learned ${i}`,
      difficulty: 'ANOTHER',
      level: 12,
      maxEx: 3000,
    }));
    const charts = [...known, ...unknown];
    const sets: RaceRow[][][] = Array.from({ length: PLAYERS }, (_, p) => [
      raceRows(charts, 100 + p * 2),
      raceRows(charts, 101 + p * 2),
    ]);

    const racers = [];
    const shadows = [];
    for (let p = 0; p < PLAYERS; p++) racers.push(await aPublicPlayer(s.db.prisma));
    for (let p = 0; p < PLAYERS; p++) shadows.push(await aPublicPlayer(s.db.prisma));
    // a follower of everyone, with a middling best on every known chart (EX = max / 2)
    const fan = await aPublicPlayer(s.db.prisma);
    for (const u of [...racers, ...shadows]) await follows(s.db.prisma, fan, u);
    for (const c of known) {
      const chart = s.app.catalogue.find(c.title, 'SP', c.difficulty as never)!;
      await withBestScore(s.db.prisma, fan, chart.id, Math.floor(c.maxEx / 2), { version: VERSION });
    }
    const send = async (userId: string, rows: RaceRow[]) =>
      s.gql(IMPORT_ROWS, { version: VERSION, rows }, await s.tokenFor(userId));

    // the shadows: one import after the other
    for (let p = 0; p < PLAYERS; p++)
      for (const rows of sets[p]) expect((await send(shadows[p].id, rows)).body.errors).toBeUndefined();
    await s.app.events.settled();
    // the racers: all 2 × N at once
    const results = await Promise.all(racers.flatMap((u, p) => sets[p].map((rows) => send(u.id, rows))));
    for (const r of results) {
      expect(r.body.errors).toBeUndefined();
      expect(r.status).toBe(200);
    }
    await s.app.events.settled();

    const db = s.db.prisma;
    for (let p = 0; p < PLAYERS; p++) {
      const bests = await bestsOf(db, racers[p].id, VERSION);
      // the oracle: per chart, the max EX / best lamp / fewest misses over both exports' rows
      expect(Object.fromEntries(bests)).toEqual(Object.fromEntries(expectedBests(sets[p])));
      expect(Object.fromEntries(bests)).toEqual(Object.fromEntries(await bestsOf(db, shadows[p].id, VERSION)));
      expect(await derivedOf(db, racers[p].id, VERSION)).toEqual(await derivedOf(db, shadows[p].id, VERSION));
      expect((await derivedOf(db, racers[p].id, VERSION)).radar).not.toBeNull();
    }
    // each learned chart exists once
    for (const c of unknown) expect(await db.song.count({ where: { title: c.title } })).toBe(1);
    const { stored, rebuilt } = await rankBlocksVsRebuild(db);
    expect(stored).toEqual(rebuilt);
    // OVERTAKEN notifications to the fan: one per chart passed, on the same charts for a racer as
    // for its shadow (which of the two imports passed the fan depends on the order they ran in,
    // so the importer's EX is only checked to be above the fan's)
    const notes = async (actorId: string) =>
      (
        await db.notification.findMany({
          where: { recipientId: fan.id, actorId, type: 'OVERTAKEN' },
          select: { chartId: true, data: true },
        })
      )
        .map((n) => {
          const d = n.data as { myExScore: number; actorExScore: number };
          expect(d.actorExScore).toBeGreaterThan(d.myExScore);
          return `${n.chartId}:${d.myExScore}`;
        })
        .sort();
    let total = 0;
    for (let p = 0; p < PLAYERS; p++) {
      const mine = await notes(racers[p].id);
      total += mine.length;
      expect(mine).toEqual(await notes(shadows[p].id));
    }
    // the fan sits at half the maximum; random EX in [1, max) passes it about half the time
    expect(total).toBeGreaterThan(0);
  });
});
