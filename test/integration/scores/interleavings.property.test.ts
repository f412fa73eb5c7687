/**
 * Random interleavings of the three writers of derived score state — an import, a batch
 * deletion and a definitions update — on a small fixture (4 charts, 2 players), as a fast-check
 * property. A case is a few rounds; in a round every operation is sent at once (two imports of one
 * player, an import racing the deletion of that player's earlier batch, a definitions update
 * racing both), then the same operations run one by one for "shadow" players. After the last
 * round (events settled, recompute over), for each player:
 *  - bests = the per-field maxima of the rows of the imports not deleted (the oracle below)
 *          = the shadow's bests = a from-scratch rebuild from the stored plays;
 *  - the stored total and played count = the shadow's = the rebuild's (under the final definitions);
 *  - the radar row = the shadow's;
 *  - the follower's OVERTAKEN notifications name the same charts as the shadow's, which are the
 *    charts where some import (deleted later or not) beat the follower's EX (a best crosses the
 *    follower's EX exactly once before it first exceeds it, in whatever order imports ran);
 * and the rank blocks equal their rebuild from the bests. PGlite runs it (one connection: requests
 * still interleave between their statements) and PostgreSQL (real concurrency).
 */
import fc from 'fast-check';
import { demoDefinitions } from '../../../src/db/seed';
import { rebuildDerived } from '../../../src/modules/scores/rebuild.service';
import { aPublicPlayer, anAdmin, follows, withBestScore } from '../../helpers/factories';
import { fuzzRuns } from '../../helpers/fuzz';
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
import { describeIf } from '../../helpers/skip';

const VERSION = '33';
const DELETE = `mutation($b: ID!) { deleteBatch(batchId: $b) { batchId } }`;
const DEFS = `mutation($j: String!) { importDefinitions(json: $j) { changed } }`;

type Op = { kind: 'import'; player: number; seed: number } | { kind: 'delete'; player: number; pick: number };
interface Round {
  /** a definitions update in this round: every fixture chart's WR moved by `wrShift` × 5 */
  defs: number | null;
  ops: Op[];
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('import' as const),
      player: fc.integer({ min: 0, max: 1 }),
      seed: fc.nat(10_000),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      player: fc.integer({ min: 0, max: 1 }),
      pick: fc.nat(7),
    }),
    weight: 1,
  },
);
const roundsArb = fc.array(
  fc.record({
    defs: fc.option(fc.integer({ min: -3, max: 3 }), { freq: 3 }),
    ops: fc.array(opArb, { minLength: 1, maxLength: 4 }),
  }),
  { minLength: 1, maxLength: 3 },
);

// Known failures (found by this property, open in issue #28): (1) an import of rows already stored
// racing the deletion of the batch that stored them may write nothing (nothing new) and then lose
// its rows with the batch — bests {} where one-by-one in the other order keeps them; (2) an import
// racing a definitions update can leave a total on the old definitions (stored 19.38 vs rebuilt
// 20.61). Until they are fixed the property runs on demand (INTERLEAVINGS=1) and in `.ci/nightly`
// (FUZZ_RUNS=1000), not in `npm test`.
const runInterleavings = process.env.INTERLEAVINGS === '1' || Number(process.env.FUZZ_RUNS) >= 1000;

describeIf(
  runInterleavings,
  'known failing interleavings (issue #28: re-import vs batch deletion, import vs definitions update); INTERLEAVINGS=1 or the nightly runs it',
)('interleavings of import / delete batch / definitions update', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('leave the state of the same operations one by one, and of a rebuild from scratch', async () => {
    const demo = demoDefinitions();
    const cat = s.app.catalogue;
    const fixture = [...cat.charts()]
      .filter((c) => c.playStyle === 'SP' && c.definition && c.definition.definitionsVersion === demo.version)
      .sort((a, b) => a.id - b.id)
      .slice(0, 4);
    expect(fixture).toHaveLength(4);
    const charts: RaceChart[] = fixture.map((c) => ({
      title: c.title,
      difficulty: c.difficulty,
      level: c.level,
      maxEx: c.notes * 2,
    }));
    const code: Record<string, string> = { HYPER: '3', ANOTHER: '4', LEGGENDARIA: '10' };
    // the demo release with the fixture's WRs moved by `shift` × 5 (a re-import of one release
    // replaces its rows: docs/guide/bpi.md)
    const defsDoc = (shift: number) =>
      JSON.stringify({
        ...demo,
        body: demo.body.map((e) =>
          charts.some((c) => c.title === e.title && code[c.difficulty] === e.difficulty)
            ? { ...e, wr: (e.wr as number) + shift * 5 }
            : e,
        ),
      });
    const adminToken = await s.tokenFor((await anAdmin(s.db.prisma)).id);
    const db = s.db.prisma;

    await fc.assert(
      fc.asyncProperty(roundsArb, async (rounds: Round[]) => {
        const racers = [await aPublicPlayer(db), await aPublicPlayer(db)];
        const shadows = [await aPublicPlayer(db), await aPublicPlayer(db)];
        // a follower of all four with EX = max / 2 on every fixture chart
        const fan = await aPublicPlayer(db);
        for (const u of [...racers, ...shadows]) await follows(db, fan, u);
        for (const c of fixture) await withBestScore(db, fan, c.id, c.notes, { version: VERSION });
        const tokens = {
          racers: await Promise.all(racers.map((u) => s.tokenFor(u.id))),
          shadows: await Promise.all(shadows.map((u) => s.tokenFor(u.id))),
        };
        // per player, the imports so far: rows, racer's batch, shadow's batch, deleted?
        const done: { rows: RaceRow[]; racer: string; shadow: string; deleted: boolean }[][] = [[], []];
        const everyImport: RaceRow[][][] = [[], []];

        const send = async (query: string, variables: Record<string, unknown>, token: string) => {
          const res = await s.gql(query, variables, token);
          // every request succeeds: no deadlock, no INTERNAL, no "not found" for a batch that exists
          expect([res.status, res.body.errors]).toEqual([200, undefined]);
          return res.body.data;
        };

        for (const round of rounds) {
          // deletes name a batch of an earlier round (one delete per batch in a round)
          const picked = new Set<object>();
          type Step = { op: Op; rows: RaceRow[] } | { op: Op; target: (typeof done)[number][number] };
          const plan = round.ops.flatMap((op): Step[] => {
            if (op.kind === 'import') return [{ op, rows: raceRows(charts, op.seed) }];
            const live = done[op.player].filter((d) => !d.deleted);
            const target = live.length ? live[op.pick % live.length] : undefined;
            if (!target || picked.has(target)) return [];
            picked.add(target);
            return [{ op, target }];
          });
          const run = async (step: Step, who: 'racers' | 'shadows') => {
            const token = tokens[who][step.op.player];
            if ('rows' in step) {
              const data = await send(IMPORT_ROWS, { version: VERSION, rows: step.rows }, token);
              return data.importScores.batchId as string;
            }
            await send(DELETE, { b: who === 'racers' ? step.target.racer : step.target.shadow }, token);
            return null;
          };
          // the racers (and the definitions update): all at once
          const [racerBatches] = await Promise.all([
            Promise.all(plan.map((step) => run(step, 'racers'))),
            round.defs === null ? null : send(DEFS, { j: defsDoc(round.defs) }, adminToken),
          ]);
          // the shadows: one by one
          for (let i = 0; i < plan.length; i++) {
            const step = plan[i];
            const shadowBatch = await run(step, 'shadows');
            if ('rows' in step) {
              done[step.op.player].push({
                rows: step.rows,
                racer: racerBatches[i]!,
                shadow: shadowBatch!,
                deleted: false,
              });
              everyImport[step.op.player].push(step.rows);
            } else step.target.deleted = true;
          }
        }
        await s.app.events.settled();
        await s.app.recompute.wait();

        const fromScratch = async (userId: string) => {
          let out: unknown = null;
          await db
            .$transaction(async (tx) => {
              await rebuildDerived(tx, cat, userId, VERSION);
              out = {
                bests: Object.fromEntries(await bestsOf(tx as never, userId, VERSION)),
                status: played((await derivedOf(tx as never, userId, VERSION)).status),
              };
              throw new RollBack();
            })
            .catch((err) => {
              if (!(err instanceof RollBack)) throw err;
            });
          return out as { bests: Record<string, unknown>; status: unknown };
        };
        const overtaken = async (actorId: string) =>
          [
            ...new Set(
              (
                await db.notification.findMany({
                  where: { recipientId: fan.id, actorId, type: 'OVERTAKEN' },
                  select: { chartId: true },
                })
              ).map((n) => n.chartId!),
            ),
          ].sort((a, b) => a - b);

        for (let p = 0; p < 2; p++) {
          const [racer, shadow] = [racers[p].id, shadows[p].id];
          const bests = Object.fromEntries(await bestsOf(db, racer, VERSION));
          const kept = done[p].filter((d) => !d.deleted).map((d) => d.rows);
          expect(bests).toEqual(Object.fromEntries(expectedBests(kept)));
          expect(bests).toEqual(Object.fromEntries(await bestsOf(db, shadow, VERSION)));
          const derived = await derivedOf(db, racer, VERSION);
          expect(derived).toEqual(await derivedOf(db, shadow, VERSION));
          const scratch = await fromScratch(racer);
          expect(bests).toEqual(scratch.bests);
          expect(played(derived.status)).toEqual(scratch.status);
          // the charts where some import beat the fan's EX (= notes, half the maximum)
          const beaten = fixture
            .filter((c) =>
              everyImport[p].some((rows) =>
                rows.some((r) => r.title === c.title && r.difficulty === c.difficulty && r.exScore > c.notes),
              ),
            )
            .map((c) => c.id)
            .sort((a, b) => a - b);
          expect(await overtaken(racer)).toEqual(beaten);
          expect(await overtaken(shadow)).toEqual(beaten);
        }
        const { stored, rebuilt } = await rankBlocksVsRebuild(db);
        expect(stored).toEqual(rebuilt);
      }),
      // 6 cases by default (30 at the nightly FUZZ_RUNS=1000): a case is 5–20 s of wall time on
      // PostgreSQL (definitions updates reload the catalogue; imports wait on each other's locks)
      { numRuns: fuzzRuns(30) },
    );
  }, 600_000); // 3 cases took 57 s on PostgreSQL at a load average of 12 on 2 cores
});
class RollBack extends Error {}
/** A status row that counts no played chart says what no row says (a rebuild writes one, an import of nothing does not). */
const played = <T extends { playedCount: number } | null>(status: T): T | null =>
  status && status.playedCount > 0 ? status : null;
