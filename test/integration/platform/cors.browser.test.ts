import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { aPublicPlayer } from '../../helpers/factories';
import { startTestServer, type TestServer } from '../../helpers/server';
import { CHROMIUM, CHROMIUM_ARGS } from '../../helpers/browser';
import { describeIf } from '../../helpers/skip';

const available = fs.existsSync(CHROMIUM);
const maybe = describeIf(available, `no Chromium at ${CHROMIUM} (apt-get install chromium)`);

/**
 * A frontend on another origin, as a Vite dev server would serve it: the page is served by a second
 * local HTTP server (every interface, so that both http://localhost:P and http://127.0.0.1:P reach
 * it — two different origins), and the API server allows only http://localhost:P.
 */
maybe('a page on another origin calls the API from headless Chromium (CORS)', () => {
  let s: TestServer;
  let frontend: http.Server;
  let browser: Browser;
  let allowed: string;
  let refused: string;
  let player: { id: string; name: string };
  let token: string;
  const seen: string[] = [];

  beforeAll(async () => {
    frontend = http.createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>frontend</title><p>a frontend</p>');
    });
    await new Promise<void>((resolve) => frontend.listen(0, resolve));
    const port = (frontend.address() as AddressInfo).port;
    allowed = `http://localhost:${port}`;
    refused = `http://127.0.0.1:${port}`;
    s = await startTestServer({ env: { CORS_ORIGINS: allowed } });
    player = await aPublicPlayer(s.db.prisma);
    token = await s.tokenFor(player.id);
    // what reaches the API server (preflights included, which the page never sees)
    s.fastify.server.on('request', (req: http.IncomingMessage) =>
      seen.push(`${req.method} ${req.url?.split('?')[0]} ${req.headers.origin ?? '-'}`),
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await new Promise((resolve) => frontend?.close(resolve));
  });

  /** Runs in the page: POST /graphql with JSON and a bearer token, then GET a REST path. */
  async function callApi(pageOrigin: string) {
    seen.length = 0;
    const page = await browser.newPage();
    try {
      await page.goto(`${pageOrigin}/`);
      return await page.evaluate(
        async ({ api, token, userId }) => {
          const out: Record<string, unknown> = {};
          try {
            const res = await fetch(`${api}/graphql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify({ query: '{ me { id: databaseId name } serverInfo { name } }' }),
            });
            out.graphql = { status: res.status, body: await res.json() };
          } catch (err) {
            out.graphql = { failed: String(err) };
          }
          try {
            const res = await fetch(`${api}/api/v1/users/${userId}/profile`);
            out.rest = { status: res.status, body: await res.json() };
          } catch (err) {
            out.rest = { failed: String(err) };
          }
          return out;
        },
        { api: s.url, token, userId: player.id },
      );
    } finally {
      await page.close();
    }
  }

  it('from the allowed origin: GraphQL (JSON POST with a bearer token, preflighted) and a REST path answer', async () => {
    const out = (await callApi(allowed)) as any;
    const requests = [...seen];
    expect(out.graphql).toEqual({
      status: 200,
      body: { data: { me: { id: player.id, name: player.name }, serverInfo: { name: 'bpigraph' } } },
    });
    expect(out.rest.status).toBe(200);
    // the REST body the page reads is the one a same-origin caller gets
    expect(out.rest.body).toEqual((await s.get(`/api/v1/users/${player.id}/profile`)).body);
    expect(out.rest.body.profile).toMatchObject({ userId: player.id, userName: player.name });
    // the JSON POST with a bearer token was preflighted; the simple GET was not
    expect(requests).toEqual([
      `OPTIONS /graphql ${allowed}`,
      `POST /graphql ${allowed}`,
      `GET /api/v1/users/${player.id}/profile ${allowed}`,
    ]);
  }, 60_000);

  it('from an origin not in CORS_ORIGINS: the browser refuses both calls', async () => {
    const out = (await callApi(refused)) as any;
    expect(out.graphql).toEqual({ failed: 'TypeError: Failed to fetch' });
    expect(out.rest).toEqual({ failed: 'TypeError: Failed to fetch' });
    // the preflight was refused, so the POST itself was never sent; the simple GET was answered
    // without Access-Control-Allow-Origin, so the page could not read it
    expect(seen).toEqual([`OPTIONS /graphql ${refused}`, `GET /api/v1/users/${player.id}/profile ${refused}`]);
  }, 60_000);
});
