import fc from 'fast-check';
import { isValidPattern, patternProblem } from '../../src/domain/fingering';
import { attributeDistance, chartInVersion, toAttributeVector } from '../../src/domain/similarity';

describe('fingering patterns', () => {
  it('accepts every permutation of 1–7 and nothing else', () => {
    const perms: string[] = [];
    const permute = (prefix: string, rest: string) =>
      rest
        ? [...rest].forEach((d, i) => permute(prefix + d, rest.slice(0, i) + rest.slice(i + 1)))
        : perms.push(prefix);
    permute('', '1234567');
    expect(new Set(perms).size).toBe(5040);
    expect(perms.every(isValidPattern)).toBe(true);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789x'), minLength: 0, maxLength: 9 }), (p) => {
        expect(isValidPattern(p)).toBe([...p].sort().join('') === '1234567');
      }),
      { numRuns: 5000 },
    );
  });

  it('names the problem of an invalid pattern', () => {
    expect(patternProblem('123456')).toBe('pattern must be 7 digits');
    expect(patternProblem('12345678')).toBe('pattern must be 7 digits');
    expect(patternProblem('123456a')).toBe('pattern must be 7 digits');
    expect(patternProblem('1234568')).toBe('pattern may only use the lanes 1–7');
    expect(patternProblem('0123456')).toBe('pattern may only use the lanes 1–7');
    expect(patternProblem('1234566')).toBe('pattern must use each lane 1–7 exactly once');
    expect(patternProblem('1234567')).toBeNull();
    expect(isValidPattern(1234567)).toBe(false);
  });
});

describe('attribute vectors and distance', () => {
  it('keeps finite numbers only; null when nothing numeric is left', () => {
    expect(toAttributeVector({ a: 1, b: '2', c: null, d: Infinity, e: -0.5 })).toEqual({ a: 1, e: -0.5 });
    expect(toAttributeVector({ a: 'x' })).toBeNull();
    expect(toAttributeVector([1, 2])).toBeNull();
    expect(toAttributeVector(null)).toBeNull();
  });

  it('is Euclidean over the shared keys, null without one', () => {
    expect(attributeDistance({ a: 0, b: 0 }, { a: 3, b: 4 })).toBe(5);
    expect(attributeDistance({ a: 0, b: 0, z: 100 }, { a: 3, b: 4, y: -100 })).toBe(5);
    expect(attributeDistance({ a: 1 }, { b: 1 })).toBeNull();
  });

  it('is a metric on vectors with the same keys (symmetry, identity, triangle inequality)', () => {
    const vec = fc.record({
      a: fc.double({ min: -1000, max: 1000, noNaN: true }),
      b: fc.double({ min: -1000, max: 1000, noNaN: true }),
      c: fc.double({ min: -1000, max: 1000, noNaN: true }),
    });
    fc.assert(
      fc.property(vec, vec, vec, (x, y, z) => {
        const d = (p: Record<string, number>, q: Record<string, number>) => attributeDistance(p, q)!;
        expect(d(x, x)).toBe(0);
        expect(d(x, y)).toBeCloseTo(d(y, x), 9);
        expect(d(x, z)).toBeLessThanOrEqual(d(x, y) + d(y, z) + 1e-6);
      }),
    );
  });
});

describe('chart exists in a version', () => {
  it('released in or before, removed after; INF has every chart', () => {
    const c = { releasedVersion: 30, removedInVersion: '33' };
    expect(chartInVersion(c, '29')).toBe(false);
    expect(chartInVersion(c, '30')).toBe(true);
    expect(chartInVersion(c, '32')).toBe(true);
    expect(chartInVersion(c, '33')).toBe(false);
    expect(chartInVersion(c, 'INF')).toBe(true);
    expect(chartInVersion({ releasedVersion: null, removedInVersion: null }, '26')).toBe(true);
  });
});
