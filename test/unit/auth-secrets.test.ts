import {
  hashSecret,
  newSecret,
  pkceChallenge,
  redirectUriProblem,
  safeEqual,
  verifyPkce,
} from '../../src/modules/auth/secrets';
import { parseScopes } from '../../src/modules/auth/auth.service';

describe('auth secrets', () => {
  it('computes the RFC 7636 appendix B S256 challenge and verifies only the matching verifier', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    expect(pkceChallenge(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifyPkce(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(true);
    expect(verifyPkce(`${verifier.slice(0, -1)}A`, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM')).toBe(false);
    expect(verifyPkce('short', pkceChallenge('short'))).toBe(false); // RFC 7636: 43–128 characters
  });

  it('makes prefixed high-entropy secrets and stores them as SHA-256 hex', () => {
    const a = newSecret('bpk');
    expect(a).toMatch(/^bpk_[A-Za-z0-9_-]{43}$/);
    expect(newSecret('bpk')).not.toBe(a);
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });

  it('accepts https redirect URIs and http only for loopback; refuses fragments and credentials', () => {
    for (const ok of [
      'https://app.example/cb',
      'https://app.example/cb?x=1',
      'http://localhost:3000/cb',
      'http://127.0.0.1:8080/',
      'http://[::1]/cb',
    ]) {
      expect([ok, redirectUriProblem(ok)]).toEqual([ok, null]);
    }
    for (const bad of [
      'http://app.example/cb',
      'https://app.example/cb#frag',
      'https://user:pw@app.example/',
      'ftp://app.example/',
      'javascript:alert(1)',
      '/relative',
      'http://localhost.evil.example/',
    ]) {
      expect([bad, redirectUriProblem(bad)]).toEqual([bad, expect.any(String)]);
    }
  });

  it('parses scopes, dropping unknown names', () => {
    expect(parseScopes('write read admin')).toEqual(['read', 'write']);
    expect(parseScopes(undefined)).toEqual([]);
  });
});
