import { ConfigError, loadConfig } from '../../src/config';

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
  it('parses switches', () => {
    expect(loadConfig({ SEED_DEMO: 'false', GRAPHQL_EXPLORER: '0' })).toMatchObject({ seedDemo: false, explorer: false });
  });
});
