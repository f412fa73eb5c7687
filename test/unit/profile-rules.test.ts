import {
  formatGameId,
  parseGameId,
  parseSocialId,
  profileImageProblem,
  sortVersionsForProfile,
  userNameProblem,
} from '../../src/domain/profile';

describe('user name rules (docs/domain/social.md#profile)', () => {
  it.each([
    'ab',
    'player_1',
    'DJ.SAKURA-2',
    'ゆーざー',
    'カタカナー・',
    '漢字名前',
    'with space',
    '全角\u3000空白',
    'a'.repeat(20),
  ])('accepts %p', (n) => {
    expect(userNameProblem(n)).toBeNull();
  });
  it.each([
    ['a', /2–20/],
    ['a'.repeat(21), /2–20/],
    ['ab/c', /must not contain/],
    ['a\\b', /must not contain/],
    ['ab?', /must not contain/],
    ['a#b', /must not contain/],
    ['a%b', /must not contain/],
    ['a*b', /must not contain/],
    ['a:b', /must not contain/],
    ['a"b', /must not contain/],
    ["a'b", /must not contain/],
    ['a<b', /must not contain/],
    ['a|b', /must not contain/],
    ['emoji😀', /letters, digits/],
    ['々々', /letters, digits/],
    ['a+b', /letters, digits/],
    ['   ', /blank/],
    ['line\nbreak', /letters, digits/],
    ['tab\there', /letters, digits/],
  ])('rejects %p', (n, msg) => {
    expect(userNameProblem(n)).toMatch(msg);
  });
});

describe('game id, social id, image URL', () => {
  it('accepts 8 digits with or without the dash and stores digits; shows NNNN-NNNN', () => {
    expect(parseGameId('1234-5678')).toBe('12345678');
    expect(parseGameId('12345678')).toBe('12345678');
    expect(parseGameId('1234-567')).toBeNull();
    expect(parseGameId('abcd-efgh')).toBeNull();
    expect(formatGameId('12345678')).toBe('1234-5678');
    expect(formatGameId(null)).toBeNull();
  });
  it('keeps social ids to letters, digits and _ (leading @ dropped)', () => {
    expect(parseSocialId('@dj_taro')).toBe('dj_taro');
    expect(parseSocialId('bad id')).toBeNull();
    expect(parseSocialId('x'.repeat(16))).toBeNull();
  });
  it('takes https image URLs only, at most 1024 characters', () => {
    expect(profileImageProblem('https://example.com/a.png')).toBeNull();
    expect(profileImageProblem('http://example.com/a.png')).toMatch(/https/);
    expect(profileImageProblem('javascript:alert(1)')).toMatch(/https/);
    expect(profileImageProblem(`https://e.com/${'a'.repeat(1020)}`)).toMatch(/1024/);
  });
  it('sorts versions newest first with INF last', () => {
    expect(
      sortVersionsForProfile([{ version: 'INF' }, { version: '31' }, { version: '33' }, { version: '26' }]).map(
        (r) => r.version,
      ),
    ).toEqual(['33', '31', '26', 'INF']);
  });
});
