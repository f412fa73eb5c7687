import http from 'node:http';
import { startTestServer, type TestServer } from '../../helpers/server';
import { aPlayer, withBestScore } from '../../helpers/factories';
import { updateDefinitions } from '../../../src/modules/catalogue/definitions.service';

/** GET with raw headers (fetch may not send a Host header of our choosing). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
}

const HOSTILE = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
  forwarded: 'host=evil.example;proto=https',
};

describe('security metadata never comes from request headers', () => {
  it('without PUBLIC_URL (development): http://localhost:<listening port>, whatever the Host header says', async () => {
    const s = await startTestServer({ seedDemo: false });
    try {
      const port = new URL(s.url).port;
      const meta = await rawGet(`${s.url}/.well-known/oauth-authorization-server`, HOSTILE);
      expect(meta.status).toBe(200);
      expect(meta.body.issuer).toBe(`http://localhost:${port}`);
      expect(meta.body.token_endpoint).toBe(`http://localhost:${port}/api/oauth/token`);
      expect(JSON.stringify(meta.body)).not.toContain('evil.example');
      const resource = await rawGet(`${s.url}/.well-known/oauth-protected-resource`, HOSTILE);
      expect(resource.body).toMatchObject({
        resource: `http://localhost:${port}/graphql`,
        authorization_servers: [`http://localhost:${port}`],
      });
      // a loopback Host is the request's own (only this machine reaches it): discovery from 127.0.0.1 says 127.0.0.1
      const loopback = await rawGet(`${s.url}/.well-known/oauth-protected-resource/mcp`, { host: `127.0.0.1:${port}` });
      expect(loopback.body).toMatchObject({
        resource: `http://127.0.0.1:${port}/mcp`,
        authorization_servers: [`http://127.0.0.1:${port}`],
      });
      const v6 = await rawGet(`${s.url}/.well-known/oauth-authorization-server`, { host: `[::1]:${port}` });
      expect(v6.body.issuer).toBe(`http://[::1]:${port}`);
      // a loopback-looking name that is not one is refused
      const fake = await rawGet(`${s.url}/.well-known/oauth-authorization-server`, {
        host: `localhost.evil.example:${port}`,
      });
      expect(fake.body.issuer).toBe(`http://localhost:${port}`);
    } finally {
      await s.close();
    }
  });

  it('with PUBLIC_URL (as production requires): the issuer is PUBLIC_URL', async () => {
    const s = await startTestServer({
      seedDemo: false,
      env: { NODE_ENV: 'production', PUBLIC_URL: 'https://bpi.example.org/' },
    });
    try {
      const meta = await rawGet(`${s.url}/.well-known/oauth-authorization-server`, HOSTILE);
      expect(meta.body).toMatchObject({
        issuer: 'https://bpi.example.org',
        authorization_endpoint: 'https://bpi.example.org/api/oauth/authorize',
      });
      expect(JSON.stringify(meta.body)).not.toContain('evil.example');
      // PUBLIC_URL wins over a loopback Host too
      const loopback = await rawGet(`${s.url}/.well-known/oauth-protected-resource/mcp`, { host: '127.0.0.1' });
      expect(loopback.body.resource).toBe('https://bpi.example.org/mcp');
      // production defaults: no explorer page, no introspection (GRAPHQL_EXPLORER=true turns both on)
      const page = await fetch(`${s.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(404);
      const intro = await s.gql('{ __schema { queryType { name } } }');
      expect(intro.body.errors?.[0]?.message).toMatch(/introspection/i);
      expect(intro.body.data).toBeUndefined();
    } finally {
      await s.close();
    }
  });
});

describe('the demo catalogue never mixes with real definitions', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(); // demo catalogue seeded (36 fictional songs, release demo-1)
  });
  afterAll(() => s.close());

  // A two-song "real" release in the published format (titles not in the demo catalogue).
  const real = {
    version: '20250101',
    requireVersion: '0',
    body: [
      {
        title: 'Real Song A',
        difficulty: '4',
        wr: 3000,
        avg: 2600,
        notes: 1600,
        bpm: '150',
        textage: '30/reala.html',
        difficultyLevel: '12',
        dpLevel: '0',
        coef: -1,
      },
      {
        title: 'Real Song B',
        difficulty: '3',
        wr: 2200,
        avg: 1900,
        notes: 1200,
        bpm: '170',
        textage: '30/realb.html',
        difficultyLevel: '11',
        dpLevel: '0',
        coef: -1,
      },
    ],
  };

  it('the first real release removes the demo songs, their charts, definitions, release and scores', async () => {
    expect(await s.db.prisma.song.count()).toBe(36);
    const demoChart = [...s.app.catalogue.charts()][0];
    const player = await aPlayer(s.db.prisma);
    await withBestScore(s.db.prisma, player, demoChart.id, 1000);
    expect(await s.db.prisma.bestScore.count({ where: { userId: player.id } })).toBe(1);

    const { report } = await updateDefinitions(s.app, real, undefined, { startRecompute: false });
    expect(report).toMatchObject({ version: '20250101', added: 2, demoSongsPurged: 36 });
    expect((await s.db.prisma.song.findMany({ orderBy: { title: 'asc' } })).map((x) => x.title)).toEqual([
      'Real Song A',
      'Real Song B',
    ]);
    expect((await s.db.prisma.definitionsRelease.findMany()).map((r) => r.version)).toEqual(['20250101']);
    expect(await s.db.prisma.chartDefinition.count()).toBe(2);
    expect(await s.db.prisma.bestScore.count({ where: { userId: player.id } })).toBe(0);
    // the in-memory catalogue and the API follow
    expect([...s.app.catalogue.charts()].map((c) => c.title).sort()).toEqual(['Real Song A', 'Real Song B']);
    const info = await s.gql('{ serverInfo { definitionsVersion } }');
    expect(info.body.data.serverInfo.definitionsVersion).toBe('20250101');

    // a second real release purges nothing more
    const again = await updateDefinitions(s.app, { ...real, version: '20250201' }, undefined, {
      startRecompute: false,
    });
    expect(again.report).toMatchObject({ demoSongsPurged: 0, unchanged: 2 });
    expect(await s.db.prisma.song.count()).toBe(2);
  });
});
