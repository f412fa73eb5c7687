/**
 * Old / new answer check of the nested rivalry read (issue #32): writes, one per line, the answers
 * of bench:rivals' query on its own seeded data (bench/rivals.ts seedRivals) and of the query and
 * its variants (filters, another version, totalCount, profile fields, single rivalries) for five
 * viewers of a random set with gaps, ties, two versions, a player without bests, private and
 * unapproved follows and missing totals. Run it in two checkouts and compare the files byte for
 * byte (a masked member's id is random on every request: the queries do not ask it).
 *   BENCH_ANSWERS=/tmp/new.txt npm run bench:answers
 *   in the other checkout, this file copied there:
 *   BENCH_ANSWERS=/tmp/old.txt node -r @swc-node/register bench/rivals-answers.ts; cmp /tmp/old.txt /tmp/new.txt
 * The two databases (bpigraph_bench_answers_bench / _random) are seeded once and kept: a second
 * run (the other checkout) reads the same rows; BENCH_ANSWERS_RESEED=1 seeds them again.
 */
import './rivals-env';
import 'reflect-metadata';
import fs from 'node:fs';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { importDefinitions } from '../src/db/definitions';
import { applyMigrations } from '../src/db/migrate';
import { LATEST_VERSION } from '../src/domain/constants';
import { createHttpServer } from '../src/http';
import { createLogger } from '../src/logger';
import { Catalogue } from '../src/modules/catalogue/catalogue';
import { DEFINITIONS_FILE } from './data';
import { benchServerEnv, ensureDatabase, pgUrl } from './lib';
import { RIVALRY_QUERY, seedRivals } from './rivals';

/** 31 players (every 4th private) over every chart of the definitions, seeded pseudo-randomly. */
async function seedRandom(db: DatabaseHandle): Promise<void> {
  await applyMigrations(db.adapterFactory);
  await importDefinitions(db.prisma, JSON.parse(fs.readFileSync(DEFINITIONS_FILE, 'utf8')));
  const catalogue = new Catalogue(db.prisma);
  await catalogue.load();
  const charts = [...catalogue.charts()].filter((c) => c.definition && c.definition.notes > 0);
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
  const ids = Array.from({ length: 31 }, (_, i) => `rand-${String(i).padStart(3, '0')}`);
  await db.prisma.user.createMany({
    data: ids.map((id, i) => ({
      id,
      name: `rand${i}`,
      nameKey: `rand${i}`,
      isPublic: i % 4 !== 3,
      ...(i % 3 === 1 ? { profileText: `hello ${i}`, gameId: String(12345670 + (i % 10)), socialId: `x${i}` } : {}),
    })),
  });
  const follows = [];
  for (let a = 0; a < 5; a++)
    for (let b = 0; b < ids.length; b++)
      if (a !== b && rnd() < 0.8)
        follows.push({
          followerId: ids[a],
          followingId: ids[b],
          approvedAt: rnd() < 0.7 ? new Date(Date.UTC(2026, 0, 1 + b)) : null,
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, b)),
        });
  await db.prisma.follow.createMany({ data: follows });
  const statuses = [];
  for (const [i, userId] of ids.entries())
    for (const version of [LATEST_VERSION, '32'])
      if (rnd() < 0.8 || i === 0)
        statuses.push({ userId, version, totalBpi: Math.round((rnd() * 90 - 15) * 100) / 100 });
  await db.prisma.playerVersionStatus.createMany({ data: statuses });
  for (const [u, userId] of ids.entries()) {
    const share = u === 4 ? 0 : 0.2 + rnd() * 0.7; // rand-004 has no best at all
    for (const version of [LATEST_VERSION, '32']) {
      const bests = charts
        .filter(() => rnd() < share)
        .map((c) => {
          const notes = c.definition!.notes;
          const r = rnd();
          // ties: a tenth at the notes count, a quarter of the rest at 1.5 × notes
          const exScore = r < 0.1 ? notes : r < 0.325 ? Math.floor(notes * 1.5) : Math.floor(rnd() * notes * 2);
          return { userId, version, chartId: c.id, exScore, exScoreId: 0, playedAt: new Date() };
        });
      if (bests.length) await db.prisma.bestScore.createMany({ data: bests });
    }
  }
  await db.prisma.$executeRawUnsafe('ANALYZE');
}

async function answers(
  name: string,
  seed: (db: DatabaseHandle) => Promise<unknown>,
  viewers: string[],
  queries: string[],
) {
  const isNew = await ensureDatabase(name, process.env.BENCH_ANSWERS_RESEED !== '1'); // (BENCH_ANSWERS_RESEED=1: seeded again)
  const url = pgUrl(name);
  const db = await openDatabase({ url });
  try {
    if (isNew) await seed(db);
    const config = loadConfig({ ...process.env, ...benchServerEnv(url) });
    const app = await createApp(config, db, createLogger('silent'));
    const { fastify } = await createHttpServer(app);
    const out: string[] = [];
    try {
      for (const viewer of viewers) {
        const token = (await app.auth.issueAccessToken(viewer)).token;
        for (const q of queries) {
          const [query, variables] = q.split('\u0000');
          const res = await fastify.inject({
            method: 'POST',
            url: '/graphql',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            payload: JSON.stringify({ query, variables: variables ? JSON.parse(variables) : undefined }),
          });
          out.push(res.payload);
        }
      }
    } finally {
      await fastify.close();
    }
    return out;
  } finally {
    await db.close();
  }
}

async function main() {
  const file = process.env.BENCH_ANSWERS;
  if (!file) throw new Error('BENCH_ANSWERS=<file> names the answers file');
  const R = 'wins losses draws played bpiDiff viewerTotalBpi totalBpi version';
  const variants = [
    RIVALRY_QUERY,
    `{ me { following(first: 50) { totalCount edges { node { name isMasked rivalry { ${R} } } } } } }`,
    `{ me { following(first: 50) { edges { node { name r12: rivalry(levels: [11, 12]) { ${R} } r7: rivalry(levels: [1, 2, 3, 4, 5, 6, 7]) { ${R} } an: rivalry(difficulties: [ANOTHER, LEGGENDARIA]) { ${R} } both: rivalry(levels: [12], difficulties: [HYPER]) { ${R} } v32: rivalry(version: "32") { ${R} } } } } } }`,
    `{ me { following(first: 7) { edges { node { name rivalry { ${R} } } } } } }`,
    `{ me { following(first: 50) { edges { followedAt node { name isMasked isPublic createdAt profileText profileImage gameId socialId follows { followers following } } } } followers(first: 50) { totalCount edges { followedAt node { name isMasked isPublic createdAt profileText gameId } } } } }`,
    ...['rand-000', 'rand-004', 'rand-007', 'rand-003'].map(
      (id) =>
        `query($id: ID!) { user(id: $id) { name rivalry { ${R} } l: rivalry(levels: [10]) { ${R} } } }\u0000${JSON.stringify({ id })}`,
    ),
  ];
  const bench = await answers('bpigraph_bench_answers_bench', seedRivals, ['bench-rival-000'], [RIVALRY_QUERY]);
  const random = await answers(
    'bpigraph_bench_answers_random',
    seedRandom,
    ['rand-000', 'rand-001', 'rand-002', 'rand-003', 'rand-004'],
    variants,
  );
  fs.writeFileSync(file, [...bench, ...random].join('\n') + '\n');
  console.log(`${bench.length + random.length} answers → ${file}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
