import { assertPlayDate, isSanePlayDate, playDateProblem } from '../../src/domain/dates';
import { AppError } from '../../src/errors';

describe('play dates: 1999-01-01 … now + 1 day', () => {
  // "now" fixed at 2025-06-01T12:00:00Z: the upper bound is 2025-06-02T12:00:00Z
  const now = Date.UTC(2025, 5, 1, 12);
  it('accepts the bounds and refuses a millisecond beyond either', () => {
    expect(isSanePlayDate(new Date('1999-01-01T00:00:00.000Z'), now)).toBe(true);
    expect(isSanePlayDate(new Date('1998-12-31T23:59:59.999Z'), now)).toBe(false);
    expect(isSanePlayDate(new Date('2025-06-02T12:00:00.000Z'), now)).toBe(true);
    expect(isSanePlayDate(new Date('2025-06-02T12:00:00.001Z'), now)).toBe(false);
    expect(isSanePlayDate(new Date('9999-12-31T00:00:00Z'), now)).toBe(false);
    expect(isSanePlayDate(new Date(NaN), now)).toBe(false);
  });
  it('names the range in its message and throws BAD_USER_INPUT naming the path', () => {
    expect(playDateProblem(new Date('9999-12-31T00:00:00Z'), now)).toBe(
      'play date 9999-12-31T00:00:00.000Z is outside 1999-01-01 … 2025-06-02',
    );
    expect(playDateProblem(new Date('2020-01-01T00:00:00Z'), now)).toBeNull();
    try {
      assertPlayDate(new Date('1970-01-01T00:00:00Z'), ['rows', 3, 'lastPlayed'], now);
      throw new Error('not thrown');
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('BAD_USER_INPUT');
      expect((err as AppError).message).toBe(
        'rows.3.lastPlayed: play date 1970-01-01T00:00:00.000Z is outside 1999-01-01 … 2025-06-02',
      );
    }
  });
});
