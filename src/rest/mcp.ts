import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { App } from '../app';
import { publicBaseUrl } from '../config';
import { AppError, toAppError, unauthenticated } from '../errors';
import { contextForRequest, type Context } from '../graphql/context';
import { consumeToolCall } from '../graphql/limits';
import { HIDDEN } from './openapi';
import { MCP_TOOLS, type McpTool } from './mcp-tools';
import pkg from '../../package.json';

/**
 * The Model Context Protocol endpoint for AI assistants (docs/rest-and-mcp.md):
 *  POST /mcp   Streamable HTTP, stateless: every request gets a new McpServer and transport
 *              (no session id), JSON responses (no SSE stream). Bearer token required (our JWTs,
 *              OAuth access tokens with their scopes); missing or bad: 401 with
 *              `WWW-Authenticate: Bearer resource_metadata=…` (RFC 9728, the document of /mcp).
 *  GET  /mcp   a short information page (HTML for a browser, else JSON): what it is, how to
 *              connect, the tools. A GET asking for an SSE stream only is 405 (no server stream).
 * The tools (src/rest/mcp-tools.ts) ask the one rule table and call the areas' services; each call
 * counts against the rate limits as GraphQL does (reads: the expensive-read limit; the update: a
 * write). Errors of the project's vocabulary become tool results with isError and the code.
 */
export const MCP_PATH = '/mcp';

/** The metadata document of /mcp (RFC 9728 §3.1: the resource's path after the well-known name). */
export const MCP_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';

/** A failed tool call: isError with `CODE: message`, and the code (and issues / retryAfter) in `_meta`. */
export function toolError(err: unknown, app: App): CallToolResult {
  const e = toAppError(err);
  if (!(err instanceof AppError) && e.code === 'INTERNAL_SERVER_ERROR')
    app.log.error({ err }, 'unhandled error in an MCP tool');
  const issues = e.details?.issues;
  const detail = issues?.length
    ? ` (${issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ')})`
    : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `${e.code}: ${e.message}${detail}` }],
    _meta: {
      code: e.code,
      ...(issues ? { issues } : {}),
      ...(e.details?.retryAfter !== undefined ? { retryAfter: e.details.retryAfter } : {}),
    },
  };
}

/** One request's MCP server: the tools bound to the request's context. */
function serverFor(app: App, ctx: Context): McpServer {
  const server = new McpServer(
    { name: 'bpigraph', version: pkg.version },
    { capabilities: { tools: {} }, instructions: 'beatmania IIDX scores and BPI of the signed-in player (bpigraph).' },
  );
  for (const t of MCP_TOOLS) {
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        inputSchema: t.input,
        outputSchema: t.output,
        annotations: { readOnlyHint: t.kind === 'read', openWorldHint: false },
      },
      async (args: unknown) => {
        try {
          await consumeToolCall(app, t.kind, ctx.ip, ctx.viewer?.id);
          const result = await t.run(ctx, app, args as never);
          return { structuredContent: result, content: [{ type: 'text', text: JSON.stringify(result) }] };
        } catch (err) {
          return toolError(err, app);
        }
      },
    );
  }
  return server;
}

/**
 * The answer of `tools/list` is the same for every caller (the tools and their JSON schemas): the
 * first one the SDK builds is kept, later ones are answered from it (100 listings were 2 MB of
 * schema conversions on the event loop).
 */
let toolsList: unknown;

function isToolsList(req: FastifyRequest): req is FastifyRequest & { body: { id: string | number; method: string } } {
  const b = req.body as { jsonrpc?: unknown; method?: unknown; id?: unknown } | null;
  const accept = req.headers.accept ?? '';
  // Only what the SDK would answer: a request (with an id) from a client accepting JSON and SSE.
  return (
    !!b &&
    b.jsonrpc === '2.0' &&
    b.method === 'tools/list' &&
    (typeof b.id === 'string' || typeof b.id === 'number') &&
    accept.includes('application/json') &&
    accept.includes('text/event-stream')
  );
}

function toolsListAnswer(req: FastifyRequest): string | undefined {
  if (toolsList === undefined || !isToolsList(req)) return undefined;
  return JSON.stringify({ jsonrpc: '2.0', id: req.body.id, result: toolsList });
}

function rememberToolsList(req: FastifyRequest, body: string): void {
  if (toolsList !== undefined || !isToolsList(req)) return;
  try {
    const parsed = JSON.parse(body) as { result?: { tools?: unknown } };
    if (Array.isArray(parsed.result?.tools)) toolsList = parsed.result;
  } catch {
    // not JSON: nothing to keep
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The information page of GET /mcp. */
export function mcpInfo(base: string, tools: readonly McpTool[] = MCP_TOOLS) {
  return {
    name: 'bpigraph MCP endpoint',
    description:
      'Model Context Protocol (Streamable HTTP, stateless) for AI assistants: read your BPI dashboard and scores, your rivals, the song catalogue, and record a score.',
    url: `${base}${MCP_PATH}`,
    transport: 'streamable-http (POST; JSON responses; no session)',
    authentication: `Authorization: Bearer <token> — an OAuth access token (scopes read / write; discovery: ${base}${MCP_RESOURCE_METADATA_PATH}) or a bpigraph access token (POST ${base}/api/v1/token)`,
    clientConfig: {
      mcpServers: {
        bpigraph: { type: 'http', url: `${base}${MCP_PATH}`, headers: { Authorization: 'Bearer <token>' } },
      },
    },
    tools: tools.map((t) => ({ name: t.name, title: t.title, description: t.description, scope: t.kind })),
  };
}

function infoHtml(info: ReturnType<typeof mcpInfo>): string {
  const rows = info.tools
    .map((t) => `<li><code>${escapeHtml(t.name)}</code> (${t.scope}) — ${escapeHtml(t.description)}</li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(info.name)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5}code,pre{background:#eee;padding:0 .2rem}pre{padding:.5rem;overflow:auto}</style>
</head><body><h1>${escapeHtml(info.name)}</h1><p>${escapeHtml(info.description)}</p>
<p>URL: <code>${escapeHtml(info.url)}</code> — ${escapeHtml(info.transport)}</p><p>${escapeHtml(info.authentication)}</p>
<p>Client configuration:</p><pre>${escapeHtml(JSON.stringify(info.clientConfig, null, 2))}</pre><h2>Tools</h2><ul>${rows}</ul></body></html>`;
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
};

export function registerMcp(fastify: FastifyInstance, app: App): void {
  const base = (req: FastifyRequest) =>
    publicBaseUrl(
      app.config,
      (fastify.server.address() as { port: number } | null)?.port ?? app.config.port,
      req.headers.host,
    );

  /** 401 with the RFC 6750 / RFC 9728 challenge: where the client finds how to get a token. */
  const challenge = (req: FastifyRequest, reply: FastifyReply, e: AppError, tokenGiven: boolean) => {
    const params = [`resource_metadata="${base(req)}${MCP_RESOURCE_METADATA_PATH}"`];
    if (tokenGiven) params.push('error="invalid_token"', `error_description="${e.message.replace(/["\\]/g, '')}"`);
    return reply
      .code(401)
      .header('www-authenticate', `Bearer ${params.join(', ')}`)
      .header('cache-control', 'no-store')
      .send({ jsonrpc: '2.0', error: { code: -32001, message: e.message }, id: null });
  };

  fastify.route({
    method: ['PUT', 'PATCH', 'DELETE'],
    url: MCP_PATH,
    ...HIDDEN,
    handler: async (_req, reply) =>
      reply
        .code(405)
        .header('allow', 'GET, POST')
        .send({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: this endpoint is stateless (POST)' },
          id: null,
        }),
  });

  fastify.get(MCP_PATH, HIDDEN, async (req: FastifyRequest, reply: FastifyReply) => {
    const accept = req.headers.accept ?? '';
    if (accept.includes('text/event-stream') && !accept.includes('text/html')) {
      // Streamable HTTP: a server that offers no stream answers the client's GET with 405.
      return reply
        .code(405)
        .header('allow', 'GET, POST')
        .send({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: no server-sent event stream (stateless endpoint)' },
          id: null,
        });
    }
    const info = mcpInfo(base(req));
    if (accept.includes('text/html')) return reply.code(200).headers(PAGE_HEADERS).send(infoHtml(info));
    return reply.code(200).send(info);
  });

  fastify.post(MCP_PATH, HIDDEN, async (req: FastifyRequest, reply: FastifyReply) => {
    if (Array.isArray(req.body)) {
      // Protocol 2025-06-18 removed JSON-RPC batching: one message per request, each counted by the limits.
      return reply.code(400).send({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: `JSON-RPC batches are not supported (MCP 2025-06-18 removed them; this one held ${req.body.length} messages): send one message per request`,
        },
        id: null,
      });
    }
    const authorization = req.headers.authorization;
    const tokenGiven = typeof authorization === 'string' && authorization !== '';
    let ctx: Context;
    try {
      if (!tokenGiven) throw unauthenticated('A bearer token is required (Authorization: Bearer <token>)');
      ctx = await contextForRequest(app, req);
      if (!ctx.viewer) throw unauthenticated('This token names no bpigraph player');
    } catch (err) {
      const e = toAppError(err);
      if (e.code !== 'UNAUTHENTICATED') throw err;
      return challenge(req, reply, e, tokenGiven);
    }
    const listed = toolsListAnswer(req);
    if (listed) return reply.code(200).header('content-type', 'application/json').send(listed);
    const server = serverFor(app, ctx);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const request = new Request(`http://localhost${MCP_PATH}`, { method: 'POST', headers });
      const response = await transport.handleRequest(request, { parsedBody: req.body });
      const body = await response.text();
      if (response.status === 200) rememberToolsList(req, body);
      reply.code(response.status);
      response.headers.forEach((value, key) => void reply.header(key, value));
      return reply.send(body);
    } finally {
      await server.close();
    }
  });
}
