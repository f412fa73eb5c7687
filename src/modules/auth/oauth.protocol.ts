/**
 * The OAuth 2.0 vocabulary shared by the authorization side (oauth.service.ts) and the token side
 * (oauth.tokens.ts): lifetimes, the RFC 6749 error, the validated authorization request, parameter
 * reading and redirect URLs.
 */
import type { Scope } from './auth.service';

export const CODE_TTL_SECONDS = 60;
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const CONSENT_TICKET_TTL_SECONDS = 600;

/** An RFC 6749 §5.2 error: `{ error, error_description }` with its HTTP status. */
export class OAuthError extends Error {
  /**
   * Set on authorization-request errors found after the client and redirect URI were verified,
   * for a client a user registered (issueOAuthClient): they may be reported to the client by
   * redirect (RFC 6749 §4.1.2.1). Others never are — in particular not for dynamically registered
   * clients, whose redirect URIs anyone may choose (the endpoint would be an open redirector).
   */
  redirect?: { uri: string; state?: string };

  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
  body() {
    return { error: this.error, error_description: this.description };
  }
}

/** A validated authorization request (the parameters of /authorize and of the consent POST). */
export interface AuthorizationRequest {
  clientId: string;
  clientName: string | null;
  confidential: boolean;
  redirectUri: string;
  codeChallenge: string;
  scopes: Scope[];
  state?: string;
}

export type Params = Record<string, unknown>;
export const str = (p: Params, k: string): string | undefined => {
  const v = p[k];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/** redirect_uri + query parameters (keeping any query the registered URI already has). */
export function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}
