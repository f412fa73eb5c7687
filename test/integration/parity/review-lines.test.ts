/**
 * Issue #33 item 3: the monthly review's total-BPI line for the viewer and each followed player
 * (`Review.growthLines`), plays per day of the week numbered 0 = Monday … 6 = Sunday (JST,
 * `byDayOfWeek`), and the box plot's weeks starting on Sunday (docs/domain/stats.md#review, #box-plot).
 *
 * Catalogue: A and B, SP ANOTHER ☆12, notes 1000 — the total set is {A, B}: N = 2, k = log2 2 = 1,
 * so a total is the plain mean of the two BPIs (an unplayed chart counts −15). The review reads
 * the BPI stored with each play (set below).
 *
 * 2026-03-01 is a Sunday (2026-01-05 is a Monday; +27 days → Sun 02-01; February has 28 days).
 *
 * Viewer V (plays, JST):
 *   02-20 12:00 A 1700 (BPI 20)                  — before March: start = (20 + −15) / 2 = 2.5
 *   03-03 10:00 B 1650 (40)   Tue  → (20 + 40) / 2 = 30
 *   03-07 08:00 A 1750 (50)   Sat (Fri 23:00 UTC) → (50 + 40) / 2 = 45
 *   03-08 22:00 A 1800 (60)   Sun
 *   03-08 23:30 B 1850 (80)   Sun  → (60 + 80) / 2 = 70
 * R1 public, followed:  03-01 09:00 A 1650 (10) → (10 − 15) / 2 = −2.5; 03-15 B 1700 (30) → (10 + 30) / 2 = 20;
 *                       start (nothing before) = −15
 * R2 private, approved: 02-10 A 1780 (40) → start = end = (40 − 15) / 2 = 12.5, no play in March
 * R3 public, not followed: plays in March, never listed.
 * Rival order (newWins − newLosses): R1: I win A (1800 > 1650) and B (1850 > 1700) at the end, nothing
 * at the start (R1 had no best) → 2; R2: A 1800 > 1780 at the end, 1700 < 1780 at the start → 1.
 */
import { importDefinitions } from '../../../src/db/definitions';
import type { User } from '../../../src/generated/prisma/client';
import { aPrivatePlayer, aPublicPlayer, aScoreImport, follows } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';

let s: TestServer;
let v: User, r1: User, r2: User;
const ids: Record<string, number> = {};
const jst = (d: string, hm: string) => new Date(`${d}T${hm}:00+09:00`);

beforeAll(async () => {
  s = await startTestServer({ seedDemo: false });
  const db = s.db.prisma;
  const def = (title: string) => ({
    title,
    difficulty: '4',
    wr: 1900,
    avg: 1600,
    notes: 1000,
    bpm: '150',
    textage: `20/${title}.html`,
    difficultyLevel: '12',
    dpLevel: '0',
    coef: 1,
  });
  await importDefinitions(db, { version: 'review-lines', requireVersion: '0', body: [def('LineA'), def('LineB')] });
  for (const c of await db.chart.findMany({ include: { song: true } })) ids[c.song.title] = c.id;
  await s.app.catalogue.load();
  const { LineA: A, LineB: B } = ids;
  v = await aPublicPlayer(db, { name: 'rl_v' });
  r1 = await aPublicPlayer(db, { name: 'rl_r1' });
  r2 = await aPrivatePlayer(db, { name: 'rl_r2' });
  const r3 = await aPublicPlayer(db, { name: 'rl_r3' });
  await follows(db, v, r1);
  await follows(db, v, r2, { approved: true });
  await aScoreImport(db, v, [{ chartId: A, exScore: 1700, bpi: 20, playedAt: jst('2026-02-20', '12:00') }]);
  await aScoreImport(db, v, [{ chartId: B, exScore: 1650, bpi: 40, playedAt: jst('2026-03-03', '10:00') }]);
  await aScoreImport(db, v, [{ chartId: A, exScore: 1750, bpi: 50, playedAt: jst('2026-03-07', '08:00') }]);
  await aScoreImport(db, v, [
    { chartId: A, exScore: 1800, bpi: 60, playedAt: jst('2026-03-08', '22:00') },
    { chartId: B, exScore: 1850, bpi: 80, playedAt: jst('2026-03-08', '23:30') },
  ]);
  await aScoreImport(db, r1, [{ chartId: A, exScore: 1650, bpi: 10, playedAt: jst('2026-03-01', '09:00') }]);
  await aScoreImport(db, r1, [{ chartId: B, exScore: 1700, bpi: 30, playedAt: jst('2026-03-15', '12:00') }]);
  await aScoreImport(db, r2, [{ chartId: A, exScore: 1780, bpi: 40, playedAt: jst('2026-02-10', '12:00') }]);
  await aScoreImport(db, r3, [{ chartId: A, exScore: 1900, bpi: 100, playedAt: jst('2026-03-02', '12:00') }]);
}, 120_000);
afterAll(() => s?.close());

const dash = async (sel: string, token?: string) =>
  s.gql<any>(`query($id: ID!) { user(id: $id) { dashboard(version: "33") { ${sel} } } }`, { id: v.id }, token);

describe('monthly review lines and weekdays; Sunday box-plot weeks (issue #33 item 3)', () => {
  it('growthLines: the viewer first (led by 03-01 at the start 2.5), then R1 and R2 in rival order', async () => {
    const d = expectNoErrors<any>(
      await dash(
        'review(month: "2026-03") { bpi { start end } rivals { name } growthLines { userId name isViewer bpiBase user { name } history { date value } } }',
        await s.tokenFor(v.id),
      ),
    ).user.dashboard.review;
    expect(d.bpi).toEqual({ start: 2.5, end: 70 });
    expect(d.rivals.map((x: any) => x.name)).toEqual(['rl_r1', 'rl_r2']);
    expect(d.growthLines).toEqual([
      {
        userId: null,
        name: 'あなた',
        isViewer: true,
        bpiBase: 2.5,
        user: null,
        history: [
          { date: '2026-03-01', value: 2.5 },
          { date: '2026-03-03', value: 30 },
          { date: '2026-03-07', value: 45 },
          { date: '2026-03-08', value: 70 },
        ],
      },
      {
        // R1 played on 03-01 itself: no leading point is added
        userId: r1.id,
        name: 'rl_r1',
        isViewer: false,
        bpiBase: -15,
        user: { name: 'rl_r1' },
        history: [
          { date: '2026-03-01', value: -2.5 },
          { date: '2026-03-15', value: 20 },
        ],
      },
      {
        userId: r2.id,
        name: 'rl_r2',
        isViewer: false,
        bpiBase: 12.5,
        user: { name: 'rl_r2' },
        history: [{ date: '2026-03-01', value: 12.5 }],
      },
    ]);
  });

  it('the year review keys lines by month: V led by 2026-01 at −15 (nothing before 2026), then 02 (2.5) and 03 (70)', async () => {
    // before 2026: nothing → (−15 − 15) / 2 = −15; after February A 20 → 2.5; after March 70
    const d = expectNoErrors<any>(
      await dash('review(month: "2026") { growthLines { name history { date value } } }', await s.tokenFor(v.id)),
    ).user.dashboard.review;
    expect(d.growthLines[0].history).toEqual([
      { date: '2026-01', value: -15 },
      { date: '2026-02', value: 2.5 },
      { date: '2026-03', value: 70 },
    ]);
  });

  it('byDayOfWeek 0 = Monday (JST): Tue 1 (03-03) → 1, Sat 1 (03-07 08:00 JST, a Friday in UTC) → 5, Sun 2 (03-08) → 6', async () => {
    const a = expectNoErrors<any>(
      await dash(
        'review(month: "2026-03") { activity { byDayOfWeek { day count } byWeekday { weekday count } } }',
        await s.tokenFor(v.id),
      ),
    ).user.dashboard.review.activity;
    expect(a.byDayOfWeek).toEqual([
      { day: 0, count: 0 },
      { day: 1, count: 1 },
      { day: 2, count: 0 },
      { day: 3, count: 0 },
      { day: 4, count: 0 },
      { day: 5, count: 1 },
      { day: 6, count: 2 },
    ]);
    // the deprecated ISO list still answers: Tue = 2, Sat = 6, Sun = 7
    expect(a.byWeekday.filter((w: any) => w.count)).toEqual([
      { weekday: 2, count: 1 },
      { weekday: 6, count: 1 },
      { weekday: 7, count: 2 },
    ]);
  });

  it('box plot weeks start on Sunday: 02-15 {A 20}, 03-01 {B 40, A 50} median 45, 03-08 {A 60, B 80} median 70', async () => {
    // with Monday weeks 03-08 (a Sunday) would fall in the week of Mon 03-02 with 03-03 and 03-07
    const d = expectNoErrors<any>(await dash('boxPlot(unit: WEEK) { date count median }')).user.dashboard;
    expect(d.boxPlot).toEqual([
      { date: '2026-02-15', count: 1, median: 20 },
      { date: '2026-03-01', count: 2, median: 45 },
      { date: '2026-03-08', count: 2, median: 70 },
    ]);
  });
});
