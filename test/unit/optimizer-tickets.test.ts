import {
  pageOf,
  rankTicketCharts,
  ticketIdIssue,
  validateTicketPage,
  validateTicketRequests,
  withPlayerScores,
  type PlayerChartScore,
  type TicketPatternRow,
} from '../../src/domain/optimizer/tickets';

// Five charts with the ticket's arrangement score and their best score over all patterns.
const ROWS: TicketPatternRow[] = [
  { chartId: 11, patternScore: 80, maxPatternScore: 100 }, // relative 0.8
  { chartId: 12, patternScore: 60, maxPatternScore: 60 }, // relative 1.0
  { chartId: 13, patternScore: 90, maxPatternScore: 150 }, // relative 0.6
  { chartId: 14, patternScore: 5, maxPatternScore: 0 }, // best ≤ 0 → last in relative mode
  { chartId: 10, patternScore: 60, maxPatternScore: 75 }, // relative 0.8 (tie with 11 → id 10 first)
];

describe('tickets: ranking', () => {
  it('raw: by the arrangement score, ties by chart id', () => {
    // 90 (13), 80 (11), 60 (10), 60 (12), 5 (14)
    expect(rankTicketCharts(ROWS, 'raw').map((r) => r.chartId)).toEqual([13, 11, 10, 12, 14]);
  });

  it('relative: by score / best score, charts whose best is ≤ 0 last, ties by chart id', () => {
    // 60/60 = 1.0 (12); 60/75 = 0.8 (10) and 80/100 = 0.8 (11); 90/150 = 0.6 (13); 14 last.
    const ranked = rankTicketCharts(ROWS, 'relative');
    expect(ranked.map((r) => r.chartId)).toEqual([12, 10, 11, 13, 14]);
    // relativeScore = score / best · 100; 0 when the best is ≤ 0.
    expect(ranked.map((r) => r.relativeScore)).toEqual([100, 80, 80, 60, 0]);
  });

  it('pages of `first` from `offset`, with hasMore', () => {
    const ranked = rankTicketCharts(ROWS, 'raw');
    expect(pageOf(ranked, { offset: 0, first: 2 })).toEqual({ items: ranked.slice(0, 2), hasMore: true });
    expect(pageOf(ranked, { offset: 3, first: 2 })).toEqual({ items: ranked.slice(3, 5), hasMore: false });
    expect(pageOf(ranked, { offset: 4, first: 10 })).toEqual({ items: ranked.slice(4), hasMore: false });
    expect(pageOf(ranked, { offset: 9, first: 10 })).toEqual({ items: [], hasMore: false });
  });

  it("adds the player's score, BPI and the gap to their total", () => {
    const scores = new Map<number, PlayerChartScore>([
      [12, { exScore: 2000, bpi: 31.4, clearLamp: 'HARD_CLEAR' }],
      [11, { exScore: 1500, bpi: null, clearLamp: 'CLEAR' }],
    ]);
    const items = withPlayerScores(rankTicketCharts(ROWS, 'relative').slice(0, 3), scores, 45.2);
    // 12: 45.2 − 31.4 = 13.8; 10: unplayed → nulls; 11: no BPI → gap null.
    expect(items.map((i) => [i.chartId, i.exScore, i.bpi, i.clearLamp, i.bpiGap])).toEqual([
      [12, 2000, 31.4, 'HARD_CLEAR', 13.8],
      [10, null, null, null, null],
      [11, 1500, null, 'CLEAR', null],
    ]);
    // No total BPI yet: every gap is null.
    expect(withPlayerScores(rankTicketCharts(ROWS, 'raw'), scores, null).every((i) => i.bpiGap === null)).toBe(true);
  });
});

describe('tickets: validation', () => {
  it('a ticket id is a permutation of the lanes 1–7', () => {
    for (const ok of ['1234567', '7654321', '2641753']) expect(ticketIdIssue(ok)).toBeNull();
    expect(ticketIdIssue('123456')).toEqual({
      argument: 'ticketId',
      message: 'ticketId: a ticket id must be 7 digits',
    });
    expect(ticketIdIssue('1234568')).toEqual({
      argument: 'ticketId',
      message: 'ticketId: a ticket id may only use the lanes 1–7',
    });
    expect(ticketIdIssue('1123456')).toEqual({
      argument: 'ticketId',
      message: 'ticketId: a ticket id must use each lane 1–7 exactly once',
    });
    expect(ticketIdIssue(1234567)).toEqual({
      argument: 'ticketId',
      message: 'ticketId must be a string of 7 lane digits',
    });
  });

  it('a request names 1 to 50 tickets, each valid; issues name the entry', () => {
    const ids = (n: number) => Array.from({ length: n }, () => ({ ticketId: '1234567' }));
    expect(validateTicketRequests(ids(50))).toMatchObject({ ok: true });
    expect(validateTicketRequests(ids(51))).toEqual({
      ok: false,
      issues: [{ argument: 'ticketIds', message: 'Too many ticketIds (max 50)' }],
    });
    expect(validateTicketRequests([])).toEqual({
      ok: false,
      issues: [{ argument: 'ticketIds', message: 'ticketIds is required (at least one ticket)' }],
    });
    expect(validateTicketRequests([{ ticketId: '1234567' }, { ticketId: '7777777' }])).toEqual({
      ok: false,
      issues: [{ argument: 'ticketIds[1]', message: 'ticketIds[1]: a ticket id must use each lane 1–7 exactly once' }],
    });
    // expiresAt is echoed, "" when absent.
    expect(validateTicketRequests([{ ticketId: '2641753', expiresAt: '2025/10/01' }, { ticketId: '1234567' }])).toEqual(
      {
        ok: true,
        value: [
          { ticketId: '2641753', expiresAt: '2025/10/01' },
          { ticketId: '1234567', expiresAt: '' },
        ],
      },
    );
  });

  it('a page: offset ≥ 0, first 1..50 (default 10)', () => {
    expect(validateTicketPage(undefined, undefined)).toEqual({ ok: true, value: { offset: 0, first: 10 } });
    expect(validateTicketPage(-1, 10)).toEqual({
      ok: false,
      issues: [{ argument: 'offset', message: 'offset must be a non-negative integer' }],
    });
    expect(validateTicketPage(NaN, 10)).toMatchObject({ ok: false });
    expect(validateTicketPage(0, 51)).toEqual({
      ok: false,
      issues: [{ argument: 'first', message: 'first must be an integer between 1 and 50' }],
    });
  });
});
