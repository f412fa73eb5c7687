import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { toGlobalId } from '../../../src/graphql/global-id';
import { aPublicPlayer } from '../../helpers/factories';
import { expectNoErrors, startTestServer, type TestServer } from '../../helpers/server';
import { CHROMIUM, CHROMIUM_ARGS } from '../../helpers/browser';
import { describeIf } from '../../helpers/skip';

const available = fs.existsSync(CHROMIUM);
if (!available) {
  // .ci/run installs Debian's chromium; on a machine without it these tests are skipped, loudly.
  console.warn(`explorer browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}
const maybe = describeIf(available, `no Chromium at ${CHROMIUM} (apt-get install chromium)`);

/** Screenshots go here (not committed): TEST_ARTIFACTS_DIR, else a folder in the system tmp dir. */
const ARTIFACTS = process.env.TEST_ARTIFACTS_DIR ?? path.join(os.tmpdir(), 'bpigraph-test-artifacts');

const RESPONSE = '.graphiql-response';

/** The text of the result pane (whitespace collapsed). */
const responseText = async (page: Page) =>
  ((await page.locator(RESPONSE).first().textContent()) ?? '').replace(/\s+/g, ' ');

/** Waits until the result pane contains every string. */
async function waitForResponse(page: Page, ...needles: string[]) {
  await page.waitForFunction(
    ({ selector, needles }) => {
      const text = (document.querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ');
      return needles.every((n) => text.includes(n));
    },
    { selector: RESPONSE, needles },
    { timeout: 30_000 },
  );
}

/** Watches the page's requests: anything not on this machine is collected. */
function externalRequests(page: Page): string[] {
  const external: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['127.0.0.1', 'localhost'].includes(u.hostname) && !['data:', 'blob:'].includes(u.protocol))
      external.push(r.url());
  });
  return external;
}

async function openExplorer(page: Page, url: string) {
  await page.goto(`${url}/graphql`, { waitUntil: 'load' });
  await page
    .locator('.graphiql-query-editor [role="textbox"], .graphiql-query-editor textarea')
    .first()
    .waitFor({ timeout: 30_000 });
}

maybe('GraphiQL explorer in headless Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startTestServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('loads with no external request and the default tabs, runs a typed query and shows the answer', async () => {
    const page = await browser.newPage();
    const external = externalRequests(page);
    await openExplorer(page, s.url);
    // the default documents: the dashboard first, then paging and the subscription example
    const tabs = await page.locator('.graphiql-tab .graphiql-tab-button').allInnerTexts();
    expect(tabs.map((t) => t.trim())).toEqual(['Dashboard', 'SongsPage', 'Notifications']);
    await page.locator('.graphiql-query-editor').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // The editor closes brackets itself: type the opening part only.
    await page.keyboard.type('{ serverInfo { name chartCount');
    await page.keyboard.press('Control+Enter');
    await waitForResponse(page, 'chartCount');
    const text = await responseText(page);
    expect(text).toContain('"name": "bpigraph"');
    expect(text).toMatch(/"chartCount": \d+/);
    expect(external).toEqual([]);
    await page.close();
  }, 90_000);

  it('signs in through the Headers tab, runs the subscription example over graphql-ws, shows an event as it happens (screenshot)', async () => {
    const me = await aPublicPlayer(s.db.prisma, { name: 'ExplorerMe' });
    const fan = await aPublicPlayer(s.db.prisma, { name: 'ExplorerFan' });
    const token = await s.tokenFor(me.id);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const external = externalRequests(page);
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await openExplorer(page, s.url);

    // the subscription example (third default tab)
    await page.locator('.graphiql-tab', { hasText: 'Notifications' }).click();
    await page.waitForFunction(() =>
      (document.querySelector('.graphiql-query-editor')?.textContent ?? '').includes('notificationAdded'),
    );

    // sign in: the bearer token in the Headers tab (inserted as text: the editor would close brackets)
    await page.getByText('Headers', { exact: true }).click();
    const headers = page.locator('.graphiql-editor-tool .graphiql-editor').last();
    await headers.click();
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${token}` }));

    // run it: the explorer opens a graphql-ws connection, authenticated by connectionParams
    await page.locator('.graphiql-execute-button').click();
    for (let i = 0; i < 300 && s.app.pubsub.subscriberCount('NOTIFICATION_ADDED', me.id) !== 1; i++)
      await page.waitForTimeout(100);
    expect(s.app.pubsub.subscriberCount('NOTIFICATION_ADDED', me.id)).toBe(1);
    expect(sockets).toEqual([`${s.url.replace(/^http/, 'ws')}/graphql`]);

    // another client follows me: the notification appears in the result pane
    expectNoErrors(
      await s.gql('mutation($u: ID!) { follow(userId: $u) { state } }', { u: me.id }, await s.tokenFor(fan.id)),
    );
    await waitForResponse(page, 'NEW_FOLLOWER', 'ExplorerFan');
    const stored = await s.db.prisma.notification.findFirstOrThrow({ where: { recipientId: me.id } });
    const text = await responseText(page);
    expect(text).toContain(`"id": "${toGlobalId('Notification', stored.id)}"`); // ids are global ids (Node)
    expect(text).toContain(`"actor": { "id": "${toGlobalId('User', fan.id)}", "name": "ExplorerFan" }`);
    expect(text).toContain('"read": false');

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const shot = path.join(ARTIFACTS, 'explorer-subscription.png');
    await page.screenshot({ path: shot });
    const png = fs.readFileSync(shot);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(10_000);
    console.log(`explorer screenshot: ${shot}`);

    // the stop button ends the subscription on the server too
    await page.locator('.graphiql-execute-button').click();
    for (let i = 0; i < 300 && s.app.pubsub.subscriberCount('NOTIFICATION_ADDED', me.id) !== 0; i++)
      await page.waitForTimeout(100);
    expect(s.app.pubsub.subscriberCount('NOTIFICATION_ADDED', me.id)).toBe(0);
    expect(external).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows why a subscription is refused: signed out (UNAUTHENTICATED), a bad token (socket closed 4403)', async () => {
    const page = await browser.newPage();
    await openExplorer(page, s.url);
    await page.locator('.graphiql-tab', { hasText: 'Notifications' }).click();
    await page.waitForFunction(() =>
      (document.querySelector('.graphiql-query-editor')?.textContent ?? '').includes('notificationAdded'),
    );
    await page.locator('.graphiql-execute-button').click();
    await waitForResponse(page, 'UNAUTHENTICATED');

    await page.getByText('Headers', { exact: true }).click();
    await page.locator('.graphiql-editor-tool .graphiql-editor').last().click();
    await page.keyboard.insertText('{"Authorization": "Bearer not-a-token"}');
    await page.locator('.graphiql-execute-button').click();
    await waitForResponse(page, 'WebSocket closed: 4403', 'the Authorization header was refused');
    await page.close();
  }, 90_000);
});
