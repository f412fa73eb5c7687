import { AppError } from '../../src/errors';
import {
  orThrow,
  parseCategory,
  parseAsOf,
  parseDate,
  parseDateRange,
  parseGroupBy,
  parsePage,
  parsePeriod,
  parseReviewPeriod,
  parseStatsQuery,
  parseStep,
  REST_NAMES,
} from '../../src/domain/stats';

describe('standard stats query (docs/domain/stats.md#standard-filter): unknown values are refused, naming the argument', () => {
  it('defaults: latest version, no level / difficulty filter', () => {
    expect(parseStatsQuery({})).toEqual({ ok: true, value: { version: '33', levels: null, difficulties: null } });
    expect(parseStatsQuery({ version: null, levels: [], difficulties: [] })).toEqual({
      ok: true,
      value: { version: '33', levels: null, difficulties: null },
    });
  });

  it('normalises: distinct levels ascending, difficulties in HYPER/ANOTHER/LEGGENDARIA order, REST strings', () => {
    const r = parseStatsQuery({
      version: 'INF',
      levels: ['12', 11, 12],
      difficulties: ['LEGGENDARIA', 'HYPER', 'LEGGENDARIA'],
    });
    expect(r).toEqual({
      ok: true,
      value: { version: 'INF', levels: [11, 12], difficulties: ['HYPER', 'LEGGENDARIA'] },
    });
  });

  it('an unknown version is an issue on `version` (the reference silently uses the latest)', () => {
    const r = parseStatsQuery({ version: '99' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual([expect.objectContaining({ code: 'invalid_enum_value', path: ['version'] })]);
  });

  it('a level other than 11/12 is an issue on `levels[i]` (the reference drops it)', () => {
    const r = parseStatsQuery({ levels: [12, 10, 'x'] });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issues.map((i) => i.path)).toEqual([
        ['levels', 1],
        ['levels', 2],
      ]);
  });

  it('one unknown difficulty is an issue, not "no filter" (the reference clears the whole list)', () => {
    const r = parseStatsQuery({ difficulties: ['ANOTHER', 'NORMAL'] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual([expect.objectContaining({ path: ['difficulties', 1] })]);
  });

  it('collects every issue, with the REST spellings when asked', () => {
    const r = parseStatsQuery({ version: 'x', levels: [13], difficulties: ['EASY'] }, REST_NAMES);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues.map((i) => i.path[0])).toEqual(['version', 'level', 'difficulty']);
  });

  it('orThrow gives BAD_USER_INPUT with the first message and every issue', () => {
    let err: unknown;
    try {
      orThrow(parseStatsQuery({ version: 'x', levels: [1] }));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('BAD_USER_INPUT');
    expect(e.message).toMatch(/version/);
    expect(e.details?.issues).toHaveLength(2);
    expect(orThrow(parseStatsQuery({ version: '32' })).version).toBe('32');
  });
});

describe('per-part arguments', () => {
  it('groupBy: day (default) | week | month; anything else refused (the reference treats it as week)', () => {
    expect(parseGroupBy(undefined)).toEqual({ ok: true, value: 'day' });
    expect(parseGroupBy('month')).toEqual({ ok: true, value: 'month' });
    expect(parseGroupBy('year')).toMatchObject({ ok: false, issues: [{ path: ['groupBy'] }] });
    expect(parseGroupBy('fortnight', 'period')).toMatchObject({ ok: false, issues: [{ path: ['period'] }] });
  });

  it('period (tower): day (default) | week | month, named `period`; asOf: a date or "latest"', () => {
    expect(parsePeriod(undefined)).toEqual({ ok: true, value: 'day' });
    expect(parsePeriod('week')).toEqual({ ok: true, value: 'week' });
    expect(parsePeriod('year')).toMatchObject({ ok: false, issues: [{ path: ['period'] }] });
    expect(parseAsOf('latest')).toEqual({ ok: true, value: null });
    expect(parseAsOf('2025-01-31')).toEqual({ ok: true, value: '2025-01-31' });
    expect(parseAsOf('yesterday')).toMatchObject({ ok: false, issues: [{ path: ['asOf'] }] }); // the reference answers 500
  });

  it('step: 1, 2, 5, 10 (default 10); 3 refused (the reference falls back to 10)', () => {
    expect(parseStep(undefined)).toEqual({ ok: true, value: 10 });
    expect(parseStep('5')).toEqual({ ok: true, value: 5 });
    expect(parseStep(3)).toMatchObject({ ok: false, issues: [{ path: ['step'] }] });
  });

  it('category: radar categories, TOTAL_BPI only where allowed; the REST lower-case spellings accepted', () => {
    expect(parseCategory(undefined, 'category', true)).toEqual({ ok: true, value: 'TOTAL_BPI' });
    expect(parseCategory('totalBpi', 'category', true)).toEqual({ ok: true, value: 'TOTAL_BPI' });
    expect(parseCategory('soflan')).toEqual({ ok: true, value: 'SOFLAN' });
    expect(parseCategory('TOTAL_BPI')).toMatchObject({ ok: false, issues: [{ path: ['category'] }] });
    expect(parseCategory('speed', 'category', true)).toMatchObject({
      ok: false,
      issues: [{ code: 'invalid_enum_value' }],
    });
  });

  it('dates are real calendar dates; a range must not run backwards', () => {
    expect(parseDate('2024-02-29', 'asOf')).toEqual({ ok: true, value: '2024-02-29' });
    expect(parseDate('2025-02-29', 'asOf')).toMatchObject({ ok: false, issues: [{ path: ['asOf'] }] });
    expect(parseDate('2025-1-5', 'asOf')).toMatchObject({ ok: false });
    expect(parseDate(undefined, 'start', true)).toMatchObject({ ok: false, issues: [{ path: ['start'] }] });
    expect(parseDateRange('2025-03-02', '2025-03-01')).toMatchObject({ ok: false, issues: [{ path: ['to'] }] });
    expect(parseDateRange('2025-03-01', null)).toEqual({ ok: true, value: { from: '2025-03-01', to: null } });
  });

  it('review period: YYYY-MM (month: first and last day) or YYYY (year)', () => {
    expect(parseReviewPeriod('2024-02')).toEqual({
      ok: true,
      value: { kind: 'month', key: '2024-02', from: '2024-02-01', to: '2024-02-29' },
    });
    expect(parseReviewPeriod('2025')).toEqual({
      ok: true,
      value: { kind: 'year', key: '2025', from: '2025-01-01', to: '2025-12-31' },
    });
    expect(parseReviewPeriod('2025-13')).toMatchObject({ ok: false, issues: [{ path: ['month'] }] });
    expect(parseReviewPeriod(undefined)).toMatchObject({ ok: false });
  });

  it('page: limit 1..max, offset ≥ 0 (the reference slices from the end on a negative offset)', () => {
    expect(parsePage(undefined, undefined)).toEqual({ ok: true, value: { limit: 20, offset: 0 } });
    expect(parsePage(0, -1)).toMatchObject({ ok: false, issues: [{ path: ['limit'] }, { path: ['offset'] }] });
    expect(parsePage(101, 0)).toMatchObject({ ok: false });
  });
});
