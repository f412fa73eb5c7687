import { randomBytes } from 'node:crypto';
import { keyset } from '../../src/graphql/args';
import { keyCursor, keysetConnection, keysetSlice } from '../../src/graphql/connection';
import { pageCompetitionRanks } from '../../src/domain/stats/common';
import { AppError } from '../../src/errors';

const issuePath = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    const err = e as AppError;
    return [err.code, err.details?.issues?.[0]?.path?.[0]];
  }
  return null;
};

describe('pageCompetitionRanks', () => {
  it('ranks a page from the rows ahead of and tied with its first value', () => {
    // population: two above 90, three 90s (one on the page before), then 80, 80, 70 on the page.
    // 90 → 1 + 2 = 3; 80 → 1 + 2 + 3 = 6 (both); 70 → 1 + 2 + 3 + 2 = 8
    expect(pageCompetitionRanks([90, 90, 80, 80, 70], 2, 3)).toEqual([3, 3, 6, 6, 8]);
    // the first page: nothing ahead, 1 tied (itself) → 1, 2, 2, 4 ("1224")
    expect(pageCompetitionRanks([10, 9, 9, 8], 0, 1)).toEqual([1, 2, 2, 4]);
    expect(pageCompetitionRanks([], 0, 0)).toEqual([]);
  });
});

describe('keyset', () => {
  const KINDS = ['num', 'int'] as const;
  it('reads back what keyCursor wrote, exactly (a float as its decimal string)', () => {
    const c = keyCursor('t', KINDS, [0.1 + 0.2, 7]);
    expect(keyset({ first: 3, after: c }, 't', KINDS)).toEqual({ size: 3, backward: false, key: [0.1 + 0.2, 7] });
    expect(keyset({ last: 2, before: c }, 't', KINDS)).toEqual({
      size: 2,
      backward: true,
      key: [0.30000000000000004, 7],
    });
    expect(keyset({}, 't', KINDS)).toEqual({ size: 20, backward: false, key: null });
  });

  it('refuses another tag, wrong kinds, garbage, and mixed directions, naming the argument', () => {
    const c = keyCursor('t', KINDS, [1, 2]);
    expect(issuePath(() => keyset({ after: c }, 'u', KINDS))).toEqual(['BAD_USER_INPUT', 'after']);
    expect(issuePath(() => keyset({ before: c }, 'u', KINDS))).toEqual(['BAD_USER_INPUT', 'before']);
    expect(issuePath(() => keyset({ after: keyCursor('t', ['str', 'str'] as const, ['x', 'y']) }, 't', KINDS))).toEqual(
      ['BAD_USER_INPUT', 'after'],
    );
    expect(issuePath(() => keyset({ after: '!!' }, 't', KINDS))).toEqual(['BAD_USER_INPUT', 'after']);
    expect(issuePath(() => keyset({ first: 1, last: 1 }, 't', KINDS))).toEqual(['BAD_USER_INPUT', 'last']);
    expect(issuePath(() => keyset({ first: 1, before: c }, 't', KINDS))).toEqual(['BAD_USER_INPUT', 'first']);
    expect(issuePath(() => keyset({ last: 1, after: c }, 't', KINDS))).toEqual(['BAD_USER_INPUT', 'after']);
    expect(issuePath(() => keyset({ last: 101 }, 't', KINDS))).toEqual(['BAD_USER_INPUT', 'last']);
  });

  it('seals a part: unreadable in the cursor, opened with the key only', () => {
    const key = randomBytes(32);
    const K = ['int', 'sealed'] as const;
    const c = keyCursor('r', K, [5, 'user-1234'], key);
    expect(Buffer.from(c, 'base64url').toString()).not.toContain('user-1234');
    expect(keyset({ after: c }, 'r', K, { key }).key).toEqual([5, 'user-1234']);
    expect(issuePath(() => keyset({ after: c }, 'r', K, { key: randomBytes(32) }))).toEqual([
      'BAD_USER_INPUT',
      'after',
    ]);
  });
});

describe('keysetSlice / keysetConnection over a list in memory', () => {
  // list order: 50, 40, 30, 20, 10 (descending)
  const list = [50, 40, 30, 20, 10];
  const cmp = (r: number, [k]: readonly [number]) => k - r;
  const cursorOf = (r: number) => keyCursor('n', ['int'] as const, [r]);

  it('forward after 40: 30, 20 and more follow', () => {
    const ks = { size: 2, backward: false, key: [40] as const };
    const page = keysetConnection(keysetSlice(list, ks, cmp), ks, cursorOf, 5);
    expect(page.edges.map((e) => e.node)).toEqual([30, 20]);
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  });

  it('backward before 20: 40, 30 in list order, rows before them', () => {
    const ks = { size: 2, backward: true, key: [20] as const };
    const page = keysetConnection(keysetSlice(list, ks, cmp), ks, cursorOf, 5);
    expect(page.edges.map((e) => e.node)).toEqual([40, 30]);
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  });

  it("makes a cursor only when it is read, once: the end cursors are their edges' own", () => {
    const ks = { size: 3, backward: false, key: null };
    const made: number[] = [];
    const page = keysetConnection(keysetSlice(list, ks, cmp), ks, (r) => (made.push(r), `c${r}:${made.length}`), 5);
    expect(page.edges.map((e) => e.node)).toEqual([50, 40, 30]);
    expect(made).toEqual([]);
    expect(page.pageInfo.endCursor).toBe('c30:1');
    expect(page.edges.map((e) => e.cursor)).toEqual(['c50:2', 'c40:3', 'c30:1']);
    expect(page.pageInfo.startCursor).toBe('c50:2');
    expect(made).toEqual([30, 50, 40]);
  });

  it('last without before: the end of the list, nothing after it', () => {
    const ks = { size: 3, backward: true, key: null };
    const page = keysetConnection(keysetSlice(list, ks, cmp), ks, cursorOf, 5);
    expect(page.edges.map((e) => e.node)).toEqual([30, 20, 10]);
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });
});
