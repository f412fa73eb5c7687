import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { EXPLORER_TABS } from './explorer-documents';

/**
 * The self-hosted GraphiQL explorer: one self-contained HTML page (no CDN, works offline) built
 * from the GraphiQL bundle of @graphql-yoga/render-graphiql, the graphql-ws browser client and a
 * small fetcher of our own:
 * - queries and mutations: POST /graphql with JSON and the headers of the Headers tab;
 * - subscriptions: graphql-ws over ws(s)://<host>/graphql — the server's protocol — with the
 *   headers of the Headers tab as connectionParams (so `Authorization: Bearer …` signs in there
 *   too); one connection per subscription, closed when it ends or the stop button is pressed.
 * Default tabs: src/graphql/explorer-documents.ts. Rendered once, kept in memory with its gzip and
 * brotli encodings, served with an ETag (304 when unchanged) and `Cache-Control: no-cache`.
 */

// The bundle is an `exports` subpath (./graphiql → cjs/graphiql.js), which TypeScript's node10
// resolution cannot see: load it at run time.
interface GraphiQLBundle {
  js: string;
  css: string;
  favicon: string;
  editorWorkerService: string;
  jsonWorker: string;
  graphqlWorker: string;
}

/** JSON for a <script> element: `</` cannot close it. */
const inlineJson = (value: unknown) => JSON.stringify(value).replace(/<\//g, '<\\/');

/** The browser side: the fetcher GraphiQL calls (plain ES2017, runs in the page). */
const BOOTSTRAP = String.raw`
(function () {
  var config = JSON.parse(document.getElementById('bpigraph-explorer-config').textContent);
  var endpoint = new URL(config.endpoint, location.href).toString();
  var wsUrl = endpoint.replace(/^http/, 'ws');

  // The operations of the document, from its text: [{ type, name }] (comments removed).
  function operationsOf(query) {
    var text = String(query || '').replace(/#[^\n\r]*/g, '');
    var ops = [];
    var re = /(^|[^_0-9A-Za-z])(query|mutation|subscription)(?:\s+([_A-Za-z][_0-9A-Za-z]*))?\s*[({@]/g;
    var m;
    while ((m = re.exec(text))) ops.push({ type: m[2], name: m[3] });
    if (!ops.length && /^\s*\{/.test(text)) ops.push({ type: 'query' });
    return ops;
  }

  // GraphiQL may pass the name of an operation the document no longer has (typed, then run at
  // once): the server would refuse it. Keep it only when the document defines it.
  function resolveOperation(params) {
    var ops = operationsOf(params.query);
    var named = params.operationName ? ops.find(function (o) { return o.name === params.operationName; }) : undefined;
    var op = named || ops[0] || { type: 'query' };
    return { type: op.type, operationName: named ? named.name : undefined };
  }

  function lowerCaseKeys(headers) {
    var out = {};
    Object.keys(headers || {}).forEach(function (k) { out[k.toLowerCase()] = headers[k]; });
    return out;
  }

  function httpFetch(params, headers) {
    return fetch(endpoint, {
      method: 'POST',
      credentials: 'same-origin',
      headers: Object.assign({ 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' }, headers),
      body: JSON.stringify(params),
    }).then(function (res) {
      return res.text().then(function (text) {
        try { return JSON.parse(text); } catch (e) { return { errors: [{ message: 'HTTP ' + res.status + ': ' + text }] }; }
      });
    });
  }

  // An observable GraphiQL subscribes to; unsubscribe (the stop button) closes the connection.
  function wsSubscribe(params, headers) {
    return {
      subscribe: function (sink) {
        var client = graphqlWs.createClient({ url: wsUrl, connectionParams: lowerCaseKeys(headers), lazy: true, retryAttempts: 0 });
        var closed = false;
        function close() {
          if (closed) return;
          closed = true;
          stop();
          client.dispose();
        }
        var stop = client.subscribe(
          params,
          {
            next: function (value) { sink.next(value); },
            error: function (err) {
              if (Array.isArray(err)) { sink.next({ errors: err }); sink.complete(); }
              else if (err && typeof err.code === 'number') {
                sink.error(new Error('WebSocket closed: ' + err.code + (err.reason ? ' ' + err.reason : '') + (err.code === 4403 ? ' (the Authorization header was refused)' : '')));
              } else sink.error(err instanceof Error ? err : new Error(String(err)));
              close();
            },
            complete: function () { sink.complete(); close(); },
          }
        );
        return { unsubscribe: close };
      },
    };
  }

  function fetcher(graphiqlParams, opts) {
    var headers = (opts && opts.headers) || {};
    var op = resolveOperation(graphiqlParams);
    var params = { query: graphiqlParams.query, variables: graphiqlParams.variables || undefined, operationName: op.operationName };
    return op.type === 'subscription' ? wsSubscribe(params, headers) : httpFetch(params, headers);
  }

  YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), {
    title: config.title,
    fetcher: fetcher,
    defaultTabs: config.tabs,
  });
})();
`;

function renderPage(endpoint: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const g = require('@graphql-yoga/render-graphiql/graphiql') as GraphiQLBundle;
  const graphqlWs = fs.readFileSync(
    path.join(path.dirname(require.resolve('graphql-ws/package.json')), 'umd', 'graphql-ws.min.js'),
    'utf8',
  );
  const config = { endpoint, title: 'bpigraph explorer', tabs: EXPLORER_TABS };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>bpigraph explorer</title>
    <link rel="icon" href="${g.favicon}" />
    <style>${g.css}</style>
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>The explorer needs JavaScript.</noscript>
    <div id="root"></div>
    <script type="application/json" id="bpigraph-explorer-config">${inlineJson(config)}</script>
    <script>${graphqlWs}</script>
    <script>
      (function () {
        function blobUrl(source) {
          return URL.createObjectURL(new Blob([source], { type: 'application/javascript' }));
        }
        var workers = {
          editorWorkerService: blobUrl(${inlineJson(g.editorWorkerService)}),
          json: blobUrl(${inlineJson(g.jsonWorker)}),
          graphql: blobUrl(${inlineJson(g.graphqlWorker)}),
        };
        self['MonacoEnvironment'] = { globalAPI: false, getWorkerUrl: function (_moduleId, label) { return workers[label]; } };
      })();
      ${g.js};
    </script>
    <script>${BOOTSTRAP}</script>
  </body>
</html>
`;
}

type Encoding = 'br' | 'gzip' | 'identity';

interface Page {
  html: Buffer;
  hash: string;
  encoded: Partial<Record<Encoding, Buffer>>;
}

const pages = new Map<string, Page>();

function page(endpoint: string): Page {
  let p = pages.get(endpoint);
  if (!p) {
    const html = Buffer.from(renderPage(endpoint));
    p = { html, hash: createHash('sha256').update(html).digest('base64url').slice(0, 22), encoded: { identity: html } };
    pages.set(endpoint, p);
  }
  return p;
}

function encode(p: Page, encoding: Encoding): Buffer {
  let body = p.encoded[encoding];
  if (!body) {
    body =
      encoding === 'br'
        ? zlib.brotliCompressSync(p.html, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: p.html.length,
            },
          })
        : zlib.gzipSync(p.html, { level: 6 });
    p.encoded[encoding] = body;
  }
  return body;
}

/** br when accepted, else gzip, else none (q=0 excludes a coding). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((x) => x.trim()).find((x) => x.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return 'identity';
}

/**
 * CSP for the explorer page: everything from this origin (fetch and the WebSocket: 'self' covers
 * ws/wss on the same host), inline script allowed, Monaco's workers from blobs; never framed.
 */
export const EXPLORER_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export interface ExplorerReply {
  status: 200 | 304;
  headers: Record<string, string>;
  /** The page in the chosen encoding (none for 304). */
  body?: Buffer;
}

/**
 * The answer to GET /graphql from a browser: 200 with the page (br / gzip when accepted), or 304
 * when If-None-Match names the current ETag. The caller adds `Vary: Accept-Encoding`.
 */
export function explorerReply(requestHeaders: IncomingHttpHeaders, endpoint = '/graphql'): ExplorerReply {
  const p = page(endpoint);
  const encoding = pickEncoding(requestHeaders['accept-encoding']);
  const etag = `"${p.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`;
  const headers: Record<string, string> = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': EXPLORER_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'cache-control': 'no-cache',
    etag,
  };
  const ifNoneMatch = requestHeaders['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag || t.trim() === '*')) {
    return { status: 304, headers };
  }
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  return { status: 200, headers, body: encode(p, encoding) };
}
