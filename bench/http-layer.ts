/**
 * Which HTTP layer carries Apollo Server: Fastify (@as-integrations/fastify) vs Apollo's own
 * standalone Node http server, on the same schema and query, plus Fastify vs bare Node for a
 * fixed JSON. Each server in its own process; autocannon here.
 */
import { fmt, load, record, startProcess } from './lib';

export async function benchHttpLayer(duration = Number(process.env.BENCH_DURATION ?? 8)): Promise<void> {
  const query = JSON.stringify({ query: '{ hello }' });
  const headers = { 'content-type': 'application/json' };
  const targets = {
    bare: await startProcess('bench/http-layer-server.ts', { LAYER: 'bare' }, 4111, '/health'),
    fastify: await startProcess('bench/http-layer-server.ts', { LAYER: 'fastify' }, 4112, '/health'),
    apolloStandalone: await startProcess(
      'bench/http-layer-server.ts',
      { LAYER: 'apollo-standalone' },
      4113,
      '/graphql',
    ),
    apolloFastify: await startProcess('bench/http-layer-server.ts', { LAYER: 'apollo-fastify' }, 4114, '/health'),
  };
  try {
    const r: Record<string, Awaited<ReturnType<typeof load>>> = {};
    for (const [name, t] of Object.entries(targets)) {
      const gql = name.startsWith('apollo');
      const opts = gql
        ? { url: `${t.url}/graphql`, method: 'POST' as const, body: query, headers }
        : { url: `${t.url}/json` };
      await load({ ...opts, duration: 2 });
      r[name] = await load({ ...opts, duration });
    }
    record(
      'HTTP layer choice',
      `autocannon, 50 connections, ${duration} s per target after a 2 s warm-up, each server in its own process`,
      [
        ['bare Node http, fixed JSON', `${fmt(r.bare.rps)} req/s`, '—'],
        [
          'Fastify route, fixed JSON',
          `${fmt(r.fastify.rps)} req/s (${fmt(r.fastify.rps / r.bare.rps, 2)} of bare)`,
          '—',
        ],
        ['Apollo standalone (Node http), { hello }', `${fmt(r.apolloStandalone.rps)} req/s`, '—'],
        [
          'Apollo on Fastify, { hello }',
          `${fmt(r.apolloFastify.rps)} req/s (${fmt(r.apolloFastify.rps / r.apolloStandalone.rps, 2)} of standalone)`,
          'choose the faster',
        ],
      ],
    );
  } finally {
    for (const t of Object.values(targets)) await t.stop();
  }
}

if (require.main === module) {
  benchHttpLayer().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
