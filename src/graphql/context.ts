import type { App } from '../app';
import type { Db } from '../db/client';
import { createLoaders, type Loaders } from './loaders';

export interface Viewer {
  id: string;
  isAdmin: boolean;
  /** OAuth scopes when the caller is a third-party app; undefined = full access (own token). */
  scopes?: readonly ('read' | 'write')[];
}

/** A verified identity of the external OpenID Connect provider (AUTH_ISSUER). */
export interface ExternalIdentityRef {
  issuer: string;
  subject: string;
}

/** Per-request context, built the same way for GraphQL and the REST adapter. */
export interface Context {
  app: App;
  db: Db;
  viewer: Viewer | null;
  loaders: Loaders;
  ip: string;
  /**
   * Set when the bearer token is a valid ID token of the external OIDC provider whose
   * (issuer, subject) is not linked to any local user yet; `viewer` is then null.
   * For the profile area (createProfile): create the User and, in the same transaction,
   * `db.externalIdentity.create({ data: { issuer, subject, userId } })`; later requests
   * with the same ID token then resolve to that user as `viewer`.
   */
  identity?: ExternalIdentityRef;
  /** The X-API-Key header, read only by the API-key exchange (Mutation.exchangeApiKey). */
  apiKey?: string;
}

/**
 * The context object. A class, so the lazy `loaders` getter lives on the prototype: an object
 * literal with a getter makes V8 define the accessor at run time on every request (measured on
 * the calculator path: about 1.5% of the server's CPU).
 */
class RequestContext implements Context {
  readonly db: Db;
  identity?: ExternalIdentityRef;
  apiKey?: string;
  private lazyLoaders?: Loaders;

  constructor(
    readonly app: App,
    readonly viewer: Viewer | null,
    readonly ip: string,
  ) {
    this.db = app.db;
  }

  // Built on first use (still one fresh set per request): paths that need no loader, such as
  // the BPI calculator, skip constructing dozens of DataLoaders.
  get loaders(): Loaders {
    return (this.lazyLoaders ??= createLoaders(this.app.db));
  }
}

export function createContext(app: App, viewer: Viewer | null, ip = ''): Context {
  return new RequestContext(app, viewer, ip);
}

/**
 * The context of an HTTP request: bearer token (viewer / external identity), X-API-Key, IP.
 * Synchronous without an Authorization header; a promise when a token must be verified.
 */
export function contextForRequest(
  app: App,
  req: { headers: Record<string, string | string[] | undefined>; ip: string },
): Context | Promise<Context> {
  const authorization = req.headers.authorization;
  // No credential: an anonymous caller, built without a promise (the hot public reads).
  if (typeof authorization !== 'string' || authorization === '') return withApiKey(createContext(app, null, req.ip), req);
  return app.auth.authenticate(authorization).then(({ viewer, identity }) => {
    const ctx = createContext(app, viewer, req.ip);
    if (identity) ctx.identity = identity;
    return withApiKey(ctx, req);
  });
}

function withApiKey(ctx: Context, req: { headers: Record<string, string | string[] | undefined> }): Context {
  const apiKey = req.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey) ctx.apiKey = apiKey;
  return ctx;
}
