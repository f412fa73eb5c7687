import { ConfigError, isLoopbackOrigin, loadConfig } from '../../src/config';

describe('configuration', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(4000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.seedDemo).toBe(true);
    expect(c.dataDir.endsWith('data')).toBe(true);
  });
  it('rejects bad values with a clear message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must be a postgresql:\/\/ URL/);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
    expect(() => loadConfig({ AUTH_ISSUER: 'https://id.example' })).toThrow(/must be set together/);
  });
  it('requires PUBLIC_URL in production, and seeds the demo catalogue only outside production by default', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL is required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    const prod = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://api.example.org/' });
    expect(prod).toMatchObject({ publicUrl: 'https://api.example.org', seedDemo: false });
    expect(
      loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://api.example.org', SEED_DEMO: 'true' }).seedDemo,
    ).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({ publicUrl: undefined, seedDemo: true });
    expect(loadConfig({ NODE_ENV: 'test', SEED_DEMO: 'no' }).seedDemo).toBe(false);
  });
  it('production: explorer and introspection off unless GRAPHQL_EXPLORER=true; elsewhere on', () => {
    const prod = { NODE_ENV: 'production', PUBLIC_URL: 'https://api.example.org' };
    expect(loadConfig(prod)).toMatchObject({ explorer: false, introspection: false });
    // the explorer needs introspection, so asking for it brings both
    expect(loadConfig({ ...prod, GRAPHQL_EXPLORER: 'true' })).toMatchObject({ explorer: true, introspection: true });
    expect(loadConfig({ ...prod, GRAPHQL_INTROSPECTION: 'true' })).toMatchObject({
      explorer: false,
      introspection: true,
    });
    expect(loadConfig({ ...prod, GRAPHQL_EXPLORER: 'true', GRAPHQL_INTROSPECTION: 'false' })).toMatchObject({
      explorer: true,
      introspection: false,
    });
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({ explorer: true, introspection: true });
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({ explorer: true, introspection: true });
    expect(() => loadConfig({ GRAPHQL_EXPLORER: 'maybe' })).toThrow(/GRAPHQL_EXPLORER/);
  });
  it('parses switches', () => {
    expect(loadConfig({ SEED_DEMO: 'false', GRAPHQL_EXPLORER: '0' })).toMatchObject({
      seedDemo: false,
      explorer: false,
    });
  });

  describe('CORS_ORIGINS', () => {
    it('defaults to every loopback origin outside production and to none in production', () => {
      const dev = loadConfig({}).cors;
      expect(dev).toMatchObject({ origins: [], loopback: true, allowCredentials: false });
      expect(loadConfig({ NODE_ENV: 'test' }).cors).toMatchObject({ origins: [], loopback: true });
      expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://api.example.org' }).cors).toMatchObject({
        origins: [],
        loopback: false,
      });
      expect(loadConfig({ CORS_ORIGINS: 'none' }).cors).toMatchObject({ origins: [], loopback: false });
      // 'loopback' can be named next to exact origins (production with a local admin page, say)
      expect(loadConfig({ CORS_ORIGINS: 'loopback, https://app.example.org' }).cors).toMatchObject({
        origins: ['https://app.example.org'],
        loopback: true,
      });
    });
    it('tells loopback origins from others', () => {
      for (const o of [
        'http://localhost:8000',
        'http://127.0.0.1:5173',
        'https://localhost',
        'http://[::1]:3000',
        'http://127.1.2.3:9',
      ])
        expect(isLoopbackOrigin(o)).toBe(true);
      for (const o of [
        'http://localhost.evil.example',
        'http://192.168.1.2:5173',
        'http://evil.example',
        'null',
        'http://127.0.0.1.nip.io',
      ])
        expect(isLoopbackOrigin(o)).toBe(false);
    });
    it('takes a comma list of exact origins, normalised as browsers send them', () => {
      expect(
        loadConfig({
          NODE_ENV: 'production',
          PUBLIC_URL: 'https://api.example.org',
          CORS_ORIGINS: ' https://App.Example.org/ ,http://localhost:5173,https://app.example.org',
        }).cors.origins,
      ).toEqual(['https://app.example.org', 'http://localhost:5173']);
      expect(loadConfig({ CORS_ORIGINS: '*' }).cors).toMatchObject({ origins: '*', loopback: false });
    });
    it('refuses what is not an origin, and * with credentials or mixed with origins', () => {
      for (const bad of [
        'https://app.example.org/path',
        'app.example.org',
        'ftp://files.example.org',
        'null',
        'https://user@app.example.org',
        'https://a.example?x=1',
      ]) {
        expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS: '.*' is not an origin/);
      }
      expect(() => loadConfig({ CORS_ORIGINS: '*', CORS_ALLOW_CREDENTIALS: 'true' })).toThrow(
        /'\*' is refused with CORS_ALLOW_CREDENTIALS=true/,
      );
      expect(() => loadConfig({ CORS_ORIGINS: '*,https://a.example' })).toThrow(/cannot be combined/);
    });
  });
});
