/**
 * A tiny catalogue whose BPI numbers can be worked out by hand (definitions release "opt-1"):
 *
 *   Alpha, Beta: SP ANOTHER ☆12, notes 1000 (max EX m = 2000), kaiden average K = 1000, WR Z = 1500, coef 1
 *   Gamma:       SP ANOTHER ☆11 (same numbers; not in the total set: N = 2)
 *
 * With g(x) = 0.5 / (1 − x/m): g(K) = 1, g(Z) = 2, so for S ≥ K
 *   BPI(S) = 100 · log2(g(S)) = 100 · log2(1000 / (2000 − S))      and   S(B) = 2000 − 1000 · 2^(−B/100)
 *   BPI(1000) = 0;  BPI(1099) = 100·log2(1000/901) = 15.04;  BPI(1098) = 100·log2(1000/902) = 14.88;  BPI(1500) = 100.
 * N = 2 → the power-mean exponent k = max(1, log2 2) = 1: the total is the plain mean of the two BPIs
 * (an unplayed chart counts −15).
 */
import { importDefinitions } from '../../../src/db/definitions';
import type { TestServer } from '../../helpers/server';

export const entry = (title: string, level: number) => ({
  title,
  difficulty: '4', // SP ANOTHER
  wr: 1500,
  avg: 1000,
  notes: 1000,
  bpm: '150',
  textage: '',
  difficultyLevel: String(level),
  dpLevel: '0',
  coef: 1,
});

export async function tinyCatalogue(
  s: TestServer,
  version = 'opt-1',
): Promise<{ alpha: number; beta: number; gamma: number }> {
  await importDefinitions(s.db.prisma, {
    version,
    requireVersion: '0',
    body: [entry('Alpha', 12), entry('Beta', 12), entry('Gamma', 11)],
  });
  await s.app.catalogue.load();
  const charts = await s.db.prisma.chart.findMany({ include: { song: true } });
  const id = (t: string) => charts.find((c) => c.song.title === t)!.id;
  return { alpha: id('Alpha'), beta: id('Beta'), gamma: id('Gamma') };
}
