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

export function createContext(app: App, viewer: Viewer | null, ip = ''): Context {
  let loaders: Loaders | undefined;
  return {
    app,
    db: app.db,
    viewer,
    ip,
    // Built on first use (still one fresh set per request): paths that need no loader, such as
    // the BPI calculator, skip constructing dozens of DataLoaders.
    get loaders() {
      return (loaders ??= createLoaders(app.db));
    },
  };
}

/** The context of an HTTP request: bearer token (viewer / external identity), X-API-Key, IP. */
export async function contextForRequest(
  app: App,
  req: { headers: Record<string, string | string[] | undefined>; ip: string },
): Promise<Context> {
  const authorization = req.headers.authorization;
  const { viewer, identity } = await app.auth.authenticate(typeof authorization === 'string' ? authorization : undefined);
  const ctx = createContext(app, viewer, req.ip);
  if (identity) ctx.identity = identity;
  const apiKey = req.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey) ctx.apiKey = apiKey;
  return ctx;
}
