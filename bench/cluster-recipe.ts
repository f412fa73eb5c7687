import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listensOn, startProcess, type Child } from './lib';

/**
 * The shipped cluster recipe (deploy/cluster.json + deploy/haproxy.cfg, docs/cluster.md) started
 * on this machine: the API processes of the list and haproxy with the shipped configuration. Used
 * by `npm run cluster` (bench/cluster.ts) and test/integration/cluster/haproxy.test.ts, so the
 * recipe the docs give is the one that runs. Differences from the list, all local: the processes
 * run the sources (`node -r @swc-node/register src/server.ts`, no build step) on free ports.
 */

const ROOT = path.resolve(__dirname, '..');
export const HAPROXY_CFG = path.join(ROOT, 'deploy/haproxy.cfg');
export const HAPROXY_BIN = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find((p) => fs.existsSync(p));

interface RecipeProcess {
  name: string;
  command: string[];
  environment: Record<string, string>;
}
export interface Recipe {
  shared_environment: { required: string[]; recommended: string[]; fixed: Record<string, string> };
  release_step: string[];
  processes: RecipeProcess[];
}

export function loadRecipe(): Recipe {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy/cluster.json'), 'utf8')) as Recipe;
}

export interface RunningCluster {
  /** The balancer's URL. */
  url: string;
  backends: (Child & { name: string })[];
  stop(): Promise<void>;
}

function waitExit(p: ChildProcess): Promise<void> {
  return new Promise((r) => {
    if (p.exitCode !== null) return r();
    p.once('exit', () => r());
    p.kill('SIGTERM');
  });
}

/**
 * Starts the recipe's API processes (`n` of them: the list's three by default; another count
 * repeats the list's server line) with `env` (the shared environment) and haproxy in front.
 * `freePort` gives the ports.
 */
export async function startRecipe(
  env: Record<string, string>,
  freePort: () => Promise<number>,
  n?: number,
): Promise<RunningCluster> {
  if (!HAPROXY_BIN) throw new Error('haproxy is not installed (apt-get install -y haproxy)');
  const recipe = loadRecipe();
  const apis = recipe.processes.filter((p) => p.name !== 'balancer');
  const count = n ?? apis.length;
  const backends: RunningCluster['backends'] = [];
  try {
    for (let i = 0; i < count; i++) {
      const name = apis[i]?.name ?? `api-${i + 1}`;
      // a new port when the one handed out was taken before the process listened (it exits then)
      for (let attempt = 1; ; attempt++) {
        try {
          const child = await startProcess(
            'src/server.ts',
            { ...recipe.shared_environment.fixed, ...env },
            await freePort(),
            '/readyz',
          );
          backends.push({ ...child, name });
          break;
        } catch (err) {
          if (attempt === 3) throw err;
        }
      }
    }
  } catch (err) {
    await Promise.all(backends.map((b) => b.stop()));
    throw err;
  }
  // the shipped configuration; another process count gets as many copies of its server line
  let cfg = HAPROXY_CFG;
  if (count !== apis.length) {
    const text = fs.readFileSync(HAPROXY_CFG, 'utf8').split('\n');
    const first = text.findIndex((l) => /^\s*server /.test(l));
    const template = text[first];
    const servers = backends.map((_b, i) =>
      template.replace(/api-1/, `api-${i + 1}`).replace('BPI_BACKEND_1', `BPI_BACKEND_${i + 1}`),
    );
    cfg = path.join(os.tmpdir(), `bpigraph-haproxy-${process.pid}-${count}.cfg`);
    fs.writeFileSync(
      cfg,
      [...text.slice(0, first).concat(servers), ...text.slice(first).filter((l) => !/^\s*server /.test(l))].join('\n'),
    );
  }
  const stopBackends = async () => {
    await Promise.all(backends.map((b) => b.stop()));
    if (cfg !== HAPROXY_CFG) fs.rmSync(cfg, { force: true });
  };
  // haproxy on a free port: another when that one was taken before haproxy bound it (haproxy exits then)
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const haproxyEnv: Record<string, string> = { PATH: process.env.PATH ?? '', BPI_LISTEN: `127.0.0.1:${port}` };
    backends.forEach((b, i) => (haproxyEnv[`BPI_BACKEND_${i + 1}`] = b.url.replace('http://', '')));
    const haproxy = spawn(HAPROXY_BIN, ['-f', cfg, '-db'], {
      env: haproxyEnv,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const url = `http://127.0.0.1:${port}`;
    let up = false;
    for (let i = 0; i <= 300 && haproxy.exitCode === null; i++) {
      try {
        // (answered through this haproxy, not by another process that took the port first)
        if ((await fetch(url + '/healthz')).ok && listensOn(haproxy.pid!, port)) {
          up = true;
          break;
        }
      } catch {
        /* not up */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (up) {
      const stop = async () => {
        await waitExit(haproxy);
        await stopBackends();
      };
      return { url, backends, stop };
    }
    await waitExit(haproxy);
    if (attempt === 3) {
      await stopBackends();
      throw new Error('haproxy did not come up');
    }
  }
}
