import { AppError } from '../../src/errors';
import { plainParams, queryParams } from '../../src/rest/bpicalc';

// GET /api/v1/bpi/calc reads its usual query without zod (plainParams); anything it does not
// take goes through the zod schema (queryParams), which words the 400. The two must agree
// wherever the plain reader answers.
describe('bpi/calc parameters: the plain reader agrees with the zod schema', () => {
  const base = { title: 'Aurora Drive', difficulty: 'ANOTHER', exScore: '3000' };

  it.each([
    // [query, expected] — expected worked out by hand from the schema: version absent → null,
    // includeRank anything but "true" → false, unknown keys dropped.
    [base, { title: 'Aurora Drive', difficulty: 'ANOTHER', exScore: 3000, version: null, includeRank: false }],
    [
      { ...base, version: '33', includeRank: 'true' },
      { title: 'Aurora Drive', difficulty: 'ANOTHER', exScore: 3000, version: '33', includeRank: true },
    ],
    [
      { ...base, exScore: '0', includeRank: 'yes', foo: 'bar' },
      { title: 'Aurora Drive', difficulty: 'ANOTHER', exScore: 0, version: null, includeRank: false },
    ],
    [
      { ...base, difficulty: 'LEGGENDARIA', exScore: '999999999999999', version: 'INF' },
      {
        title: 'Aurora Drive',
        difficulty: 'LEGGENDARIA',
        exScore: 999999999999999,
        version: 'INF',
        includeRank: false,
      },
    ],
  ])('%j', (query, expected) => {
    expect(plainParams(query)).toEqual(expected);
    expect(queryParams(query)).toEqual(expected);
  });

  it.each([
    // Unusual spellings the schema accepts: left to it (Number('007') = 7, Number('') = 0).
    [{ ...base, exScore: '007' }, 7],
    [{ ...base, exScore: '' }, 0],
    [{ ...base, exScore: ' 12 ' }, 12],
  ])('%j goes to the schema', (query, exScore) => {
    expect(plainParams(query)).toBeNull();
    expect(queryParams(query).exScore).toBe(exScore);
  });

  it.each([
    [{ ...base, exScore: '-1' }, 'exScore'],
    [{ ...base, exScore: '1.5' }, 'exScore'],
    [{ ...base, exScore: '3e3x' }, 'exScore'],
    [{ ...base, title: '' }, 'title'],
    [{ ...base, title: ['a', 'b'] }, 'title'],
    [{ ...base, difficulty: 'NORMAL' }, 'difficulty'],
    [{ ...base, version: 'XX' }, 'version'],
    [{ difficulty: 'ANOTHER', exScore: '1' }, 'title'],
  ])('%j is refused by the schema (400 naming %s)', (query, field) => {
    expect(plainParams(query)).toBeNull();
    let err: unknown;
    try {
      queryParams(query);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('BAD_USER_INPUT');
    const issues = (err as AppError).details?.issues as { path: unknown[] }[];
    expect(issues.map((i) => i.path[0])).toContain(field);
  });
});
