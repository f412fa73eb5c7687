import { fromGlobalId, idArgKey, toGlobalId } from '../../src/graphql/global-id';

describe('global ids', () => {
  it('round-trips type and key, opaque (base64url of "Type:key")', () => {
    const id = toGlobalId('User', '6f1c0d3e-0000-4000-8000-000000000001');
    expect(id).toBe(Buffer.from('User:6f1c0d3e-0000-4000-8000-000000000001').toString('base64url'));
    expect(id).not.toContain('User');
    expect(fromGlobalId(id)).toEqual({ type: 'User', key: '6f1c0d3e-0000-4000-8000-000000000001' });
    expect(fromGlobalId(toGlobalId('Chart', 42))).toEqual({ type: 'Chart', key: '42' });
    // a key may hold colons (composite keys)
    expect(fromGlobalId(toGlobalId('FingeringPattern', '7:1234567'))).toEqual({
      type: 'FingeringPattern',
      key: '7:1234567',
    });
  });

  it('is stable: the same node always gets the same id', () => {
    expect(toGlobalId('Chart', 42)).toBe(toGlobalId('Chart', '42'));
    expect(toGlobalId('Chart', 42)).toBe('Q2hhcnQ6NDI'); // base64url("Chart:42")
  });

  it('refuses what is not a canonical global id', () => {
    for (const bad of [
      '',
      '42',
      'Chart:42',
      '!!!',
      'Q2hhcnQ6NDI=',
      Buffer.from(':42').toString('base64url'),
      Buffer.from('chart:42').toString('base64url'),
      Buffer.from('Chart:').toString('base64url'),
      'x'.repeat(600),
    ]) {
      expect(fromGlobalId(bad)).toBeNull();
    }
  });

  it('ID arguments take a global id or the bare database key', () => {
    expect(idArgKey(toGlobalId('User', 'abc-1'))).toBe('abc-1');
    expect(idArgKey('abc-1')).toBe('abc-1');
    expect(idArgKey('00000000-0000-0000-0000-000000000000')).toBe('00000000-0000-0000-0000-000000000000');
    expect(idArgKey('17')).toBe('17');
  });
});
