import { defineArea, type AreaScope } from '../area';
import { AuthResolver } from './auth.resolver';
import { AuthService } from './auth.service';
import { CredentialsService } from './credentials.service';
import { KEYS_CACHE } from './keys';

/** The auth area's service for one request: the caller's credentials, and the API-key exchange of this request. */
export class AuthAreaService {
  readonly credentials: CredentialsService;

  constructor(private readonly s: Pick<AreaScope, 'ctx' | 'db' | 'rateLimiter' | 'auth'>) {
    this.credentials = new CredentialsService(s.db);
  }

  /** The X-API-Key header of this request for an access token (rate-limited per client IP). */
  exchangeApiKey() {
    return this.credentials.exchangeApiKey(this.s, this.s.ctx.apiKey, this.s.ctx.ip);
  }
}

/**
 * Identity and the caller's own credentials: access tokens (AuthService, set up once for the
 * platform's authentication), API keys, OAuth clients (the OAuth endpoints: src/rest/oauth.ts).
 * Depends on users.
 */
export const authArea = defineArea({
  name: 'auth',
  resolvers: [AuthResolver],
  // On PostgreSQL the signing keys live in the database (src/modules/auth/keys.ts), shared by every process.
  setup: async ({ config, db, database }) => ({
    auth: await AuthService.create(config, db, { shared: database.kind === 'postgres' }),
  }),
  // A rotation (`keys rotate`) announces itself: every process reads the keys again.
  caches: ({ auth }) => [{ name: KEYS_CACHE, invalidate: () => auth.keys.reload() }],
  services: (s) => new AuthAreaService(s),
});

declare module '../../graphql/context' {
  interface Services {
    auth: AuthAreaService;
  }
}
