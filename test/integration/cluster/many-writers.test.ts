/**
 * Many writers, two processes (PostgreSQL only; PGlite is one process by construction): two app
 * instances with their own pools, data directories and keys from the database take 2 × N
 * overlapping imports for N players at once, spread over both (each player's two imports go to
 * different processes, with tokens minted by the other one). Every request succeeds, and each
 * player's bests equal the per-chart oracle and a from-scratch rebuild from the stored plays.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rebuildDerived } from '../../../src/modules/scores/rebuild.service';
import type { DatabaseHandle } from '../../../src/db/client';
import { usingPostgres } from '../../helpers/db';
import { startProcessLike, type Instance } from '../../helpers/cluster';
import { aPublicPlayer } from '../../helpers/factories';
import {
  bestsOf,
  expectedBests,
  IMPORT_ROWS,
  rankBlocksVsRebuild,
  raceRows,
  type RaceChart,
} from '../../helpers/import-race';
import { startTestServer, type TestServer } from '../../helpers/server';
import { describeIf } from '../../helpers/skip';

const describePg = describeIf(
  usingPostgres,
  'PostgreSQL only: PGlite is one process by construction (run with DATABASE_URL=postgresql://…)',
);

const VERSION = '33';
const PLAYERS = 5;

describePg('concurrent imports over two processes', () => {
  let base: TestServer;
  let a: Instance & { db: DatabaseHandle };
  let b: Instance & { db: DatabaseHandle };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bpigraph-writers-'));

  beforeAll(async () => {
    base = await startTestServer();
    [a, b] = await Promise.all([
      startProcessLike(base.db.url!, path.join(tmp, 'a')),
      startProcessLike(base.db.url!, path.join(tmp, 'b')),
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await base?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('2 × N imports at once, spread over both, leave bests = per-chart max = a rebuild from scratch', async () => {
    const known: RaceChart[] = [...a.app.catalogue.charts()]
      .filter((c) => c.playStyle === 'SP' && c.definition)
      .sort((x, y) => x.id - y.id)
      .slice(0, 10)
      .map((c) => ({ title: c.title, difficulty: c.difficulty, level: c.level, maxEx: c.notes * 2 }));
    const charts = [
      ...known,
      ...[1, 2].map((i) => ({ title: `Cluster Learned ${i}`, difficulty: 'HYPER', level: 11, maxEx: 2500 })),
    ];
    const players: { id: string }[] = [];
    for (let p = 0; p < PLAYERS; p++) players.push(await aPublicPlayer(base.db.prisma));
    const sets = players.map((_, p) => [raceRows(charts, 500 + 2 * p), raceRows(charts, 501 + 2 * p)]);
    const send = async (inst: Instance, other: Instance, userId: string, rows: unknown[]) => {
      const token = (await other.app.auth.issueAccessToken(userId)).token; // minted by the other process
      const res = await fetch(`${inst.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: IMPORT_ROWS, variables: { version: VERSION, rows } }),
      });
      return { status: res.status, body: (await res.json()) as { errors?: unknown[] } };
    };
    const results = await Promise.all(
      players.flatMap((u, p) => [send(a, b, u.id, sets[p][0]), send(b, a, u.id, sets[p][1])]),
    );
    for (const r of results) expect([r.status, r.body.errors]).toEqual([200, undefined]);
    await Promise.all([a.app.events.settled(), b.app.events.settled()]);

    const db = base.db.prisma;
    for (let p = 0; p < PLAYERS; p++) {
      const live = Object.fromEntries(await bestsOf(db, players[p].id, VERSION));
      expect(live).toEqual(Object.fromEntries(expectedBests(sets[p])));
      // from scratch: the bests rebuilt from the stored plays (rolled back after reading)
      let rebuilt: Record<string, unknown> = {};
      await db
        .$transaction(async (tx) => {
          await rebuildDerived(tx, a.app.catalogue, players[p].id, VERSION);
          rebuilt = Object.fromEntries(await bestsOf(tx as never, players[p].id, VERSION));
          throw new Error('roll back');
        })
        .catch((err: Error) => {
          if (err.message !== 'roll back') throw err;
        });
      expect(live).toEqual(rebuilt);
    }
    const { stored, rebuilt } = await rankBlocksVsRebuild(db);
    expect(stored).toEqual(rebuilt);
  });
});
