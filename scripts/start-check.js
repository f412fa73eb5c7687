#!/usr/bin/env node
// Starts `npm run <script>` (default start:prod) on a free port with a throw-away DATA_DIR, waits
// for /healthz, sends SIGTERM to the npm process (as a supervisor would) and checks that the
// server stops: npm exits 0 and nothing listens on the port afterwards (no orphaned node child).
// Exit 0 and one line on success; 1 and the reason otherwise. Used by .ci/run (after `npm run
// build`, for `start:prod` and `start`; a few minutes on a busy machine, so not part of npm test).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const script = process.argv[2] ?? 'start:prod';
const startTimeoutMs = Number(process.env.START_CHECK_TIMEOUT_MS ?? 300_000);
const root = path.resolve(__dirname, '..');

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
const listening = (port) =>
  new Promise((resolve) => {
    const c = net.connect(port, '127.0.0.1');
    c.once('connect', () => (c.destroy(), resolve(true)));
    c.once('error', () => resolve(false));
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bpigraph-start-check-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn('npm', ['run', '--silent', script], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  let exit;
  const exited = new Promise((r) => child.once('exit', (code, signal) => r((exit = { code, signal }))));
  const started = Date.now();
  try {
    for (;;) {
      if (exit) throw new Error(`npm run ${script} exited before serving (code ${exit.code}, signal ${exit.signal})`);
      if (Date.now() - started > startTimeoutMs)
        throw new Error(`npm run ${script}: /healthz not answering after ${startTimeoutMs} ms`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await sleep(250);
    }
    const upMs = Date.now() - started;
    child.kill('SIGTERM');
    const result = await Promise.race([exited, sleep(20_000).then(() => null)]);
    if (!result) throw new Error(`npm run ${script} did not exit within 20 s of SIGTERM`);
    await sleep(300);
    if (await listening(port))
      throw new Error(`after SIGTERM to npm, port ${port} still answers: the node child was orphaned`);
    // npm forwards the signal to the server (exec'd by the script's shell) and, once it has gone,
    // ends either with the server's code (0) or by re-raising SIGTERM on itself.
    if (result.code !== 0 && result.signal !== 'SIGTERM')
      throw new Error(`npm run ${script} exited with code ${result.code} (signal ${result.signal}) after SIGTERM`);
    console.log(
      `start-check: npm run ${script} served /healthz after ${upMs} ms and stopped on SIGTERM (${result.signal ?? `exit ${result.code}`}, port ${port} closed)`,
    );
  } finally {
    if (!exit) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`start-check: ${err.message}`);
  process.exit(1);
});
