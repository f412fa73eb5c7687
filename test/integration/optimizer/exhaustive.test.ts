/**
 * User.bpiPlan against every combination of new EX scores on a 3-chart song set (N = 3, exponent
 * k = log2 3), EX step 1, caps off (considerCurrentTotalBpi: false → every chart may go up to BPI 100,
 * i.e. its WR). The model here is written from domain-stats.md §6.3–§6.5, not from src/domain/optimizer:
 * - a chart keeps its EX c, or takes a new EX e with c < e ≤ hi, hi = min(2·notes, max(EX for BPI 100, c + 5)),
 *   and e ≥ the smaller of c + 5 and the first EX whose BPI is ≥ BPI(c) + 0.5 (a step must gain one of them);
 *   an unplayed chart counts from EX 0 and BPI −15;
 * - total = sign(S)·|S|^(1/k) with S = Σ sign(b)·|b|^k / N over the three charts' BPIs;
 * - the cheapest combination (Σ (e − c)) whose total reaches the plan's effective target, with at
 *   most maxSteps charts changed, must cost exactly what our plan asks for.
 */
import { calcBpi, exScoreForBpi, type ChartDef } from '../../../src/domain/bpi';
import { importDefinitions } from '../../../src/db/definitions';
import type { User } from '../../../src/generated/prisma/client';
import { aPublicPlayer, withBestScore } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let player: User;
const charts: { id: number; def: ChartDef; ex: number | null }[] = [];

const def = (title: string, notes: number, avg: number, wr: number, coef: number) => ({
  title,
  difficulty: '4',
  wr,
  avg,
  notes,
  bpm: '150',
  textage: '',
  difficultyLevel: '12',
  dpLevel: '0',
  coef,
});
const SET = [
  { d: def('Delta', 50, 70, 92, 1.175), ex: 75 },
  { d: def('Echo', 60, 80, 110, 1.3), ex: null },
  { d: def('Foxtrot', 45, 60, 84, 0.9), ex: 62 },
];

beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  await importDefinitions(s.db.prisma, { version: 'ex-1', requireVersion: '0', body: SET.map((x) => x.d) });
  await s.app.catalogue.load();
  player = await aPublicPlayer(s.db.prisma);
  for (const x of SET) {
    const c = await s.db.prisma.chart.findFirstOrThrow({ where: { song: { title: x.d.title } } });
    const d = s.app.catalogue.chart(c.id)!.definition!;
    charts.push({ id: c.id, def: { notes: d.notes, kaidenAvg: d.kaidenAvg, wr: d.wr, coef: d.coef }, ex: x.ex });
    if (x.ex !== null) await withBestScore(s.db.prisma, player, c.id, x.ex);
  }
});
afterAll(() => s.close());

/** Every option of a chart: [EX cost, BPI], the first one "unchanged". */
function options(c: (typeof charts)[number]): [number, number][] {
  const cur = c.ex ?? 0;
  const from = c.ex === null ? -15 : calcBpi(c.ex, c.def)!;
  const m = c.def.notes * 2;
  const hi = Math.min(m, Math.max(exScoreForBpi(100, c.def)!, cur + 5));
  const out: [number, number][] = [[0, from]];
  for (let e = cur + 1; e <= hi; e++) {
    const b = calcBpi(e, c.def)!;
    if (e - cur < 5 && b < from + 0.5) continue; // neither +5 EX nor +0.5 BPI
    if (b <= from) continue; // gains nothing
    out.push([e - cur, b]);
  }
  return out;
}

function cheapest(target: number, maxSteps: number): number | null {
  const n = charts.length;
  const k = Math.max(1, Math.log2(n));
  const contrib = (b: number) => (Math.sign(b) * Math.pow(Math.abs(b), k)) / n;
  const need = Math.sign(target) * Math.pow(Math.abs(target), k); // S at the target
  const [o0, o1, o2] = charts.map(options).map((os) => os.map(([cost, b]) => [cost, contrib(b)] as const));
  let best: number | null = null;
  for (const [c0, s0] of o0) {
    for (const [c1, s1] of o1) {
      for (const [c2, s2] of o2) {
        const changed = (c0 > 0 ? 1 : 0) + (c1 > 0 ? 1 : 0) + (c2 > 0 ? 1 : 0);
        if (changed > maxSteps) continue;
        const cost = c0 + c1 + c2;
        if (best !== null && cost >= best) continue;
        if (s0 + s1 + s2 >= need) best = cost;
      }
    }
  }
  return best;
}

const PLAN = `query($id: ID!, $input: BpiPlanInput!) { user(id: $id) { bpiPlan(input: $input) {
  currentTotalBpi targetTotalBpi achievable alreadyAchieved totalExScoreGap steps { chartId toExScore exScoreGap } } } }`;

// Current total −3.27; the optimum is one chart up to +40, two at +60 and +75 (30 and 38 EX), three at +95 (146 EX).
describe('bpiPlan equals the exhaustive optimum (3 charts, EX step 1, caps off)', () => {
  it.each([
    [3, 1],
    [3, 2],
    [3, 3],
    [8, 2],
    [8, 3],
    [15, 3],
    [25, 3],
    [40, 1],
    [40, 2],
    [40, 3],
    [60, 1],
    [60, 2],
    [60, 3],
    [75, 3],
    [95, 2],
    [95, 3],
  ])('target current + %d, maxSteps %d', async (delta, maxSteps) => {
    const current = (expectNoErrors(await s.gql(PLAN, { id: player.id, input: { targetBpi: 100 } })) as any).user
      .bpiPlan.currentTotalBpi;
    const input = { targetBpi: Math.round((current + delta) * 100) / 100, maxSteps, considerCurrentTotalBpi: false };
    const plan = (expectNoErrors(await s.gql(PLAN, { id: player.id, input })) as any).user.bpiPlan;
    const brute = cheapest(plan.targetTotalBpi, maxSteps); // the effective target (after any auto-raise)
    if (brute === null) {
      expect(plan.achievable).toBe(false);
    } else {
      expect(plan.achievable).toBe(true);
      expect(plan.totalExScoreGap).toBe(brute);
      expect(plan.steps.reduce((a: number, x: any) => a + x.exScoreGap, 0)).toBe(brute);
      expect(plan.steps.length).toBeLessThanOrEqual(maxSteps);
    }
  });
});
