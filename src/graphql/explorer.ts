import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';

let page: { html: Buffer; gzip: Buffer; etag: string } | undefined;

/**
 * The self-hosted GraphiQL explorer: one self-contained HTML page (no CDN), rendered once and
 * kept compressed in memory.
 */
export function explorerPage(endpoint = '/graphql'): { html: Buffer; gzip: Buffer; etag: string } {
  if (!page) {
    const html = Buffer.from(
      renderGraphiQL({
        endpoint,
        title: 'bpigraph explorer',
        defaultQuery: '{\n  serverInfo {\n    name\n    version\n    database\n    chartCount\n  }\n}\n',
        headerEditorEnabled: true,
      } as Parameters<typeof renderGraphiQL>[0]),
    );
    page = { html, gzip: zlib.gzipSync(html, { level: 9 }), etag: `"${crypto.createHash('sha256').update(html).digest('base64url').slice(0, 27)}"` };
  }
  return page;
}

/** CSP for the explorer page: everything from this origin, inline script allowed, workers from blobs, never framed. */
export const EXPLORER_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'none'";
