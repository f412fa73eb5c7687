import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { notFound, unauthenticated } from '../../errors';
import { UserType } from '../users/users.types';
import { IssueOAuthClientArgs } from './auth.inputs';
import { AccessTokenPayload, ApiKeyStatus, DeleteOAuthClientPayload, IssueApiKeyPayload, IssueOAuthClientPayload, OAuthClientStatus } from './auth.types';
import { CredentialsService } from './credentials.service';

const viewerId = (ctx: Context) => {
  if (!ctx.viewer) throw unauthenticated(); // the rule table already requires a viewer
  return ctx.viewer.id;
};

/** Identity and the caller's own credentials. Rules: src/graphql/rules.ts ('auth' section). */
@Resolver()
export class AuthResolver {
  @Query(() => UserType, { description: 'The signed-in caller' })
  async me(@Ctx() ctx: Context) {
    const user = await ctx.loaders.userById.load(viewerId(ctx));
    if (!user) throw notFound('User not found');
    return user;
  }

  @Mutation(() => AccessTokenPayload, {
    description: 'Exchange the API key sent in the X-API-Key header for an access token (20 per minute per IP)',
  })
  exchangeApiKey(@Ctx() ctx: Context) {
    return new CredentialsService(ctx.db).exchangeApiKey(ctx.app, ctx.apiKey, ctx.ip);
  }

  @Query(() => ApiKeyStatus, { description: "Whether the caller has an API key, when it was issued, and its last four characters" })
  apiKeyStatus(@Ctx() ctx: Context) {
    return new CredentialsService(ctx.db).apiKeyStatus(viewerId(ctx));
  }

  @Mutation(() => IssueApiKeyPayload, { description: 'Issue or reissue the API key (shown once; the previous key stops working at once)' })
  issueApiKey(@Ctx() ctx: Context) {
    return new CredentialsService(ctx.db).issueApiKey(viewerId(ctx));
  }

  @Query(() => OAuthClientStatus, { description: "The caller's confidential OAuth client (never its secret)" })
  oauthClient(@Ctx() ctx: Context) {
    return new CredentialsService(ctx.db).oauthClient(viewerId(ctx));
  }

  @Mutation(() => IssueOAuthClientPayload, {
    description: 'Issue or reissue the confidential OAuth client (id + secret shown once; a reissue revokes the old client and its tokens)',
  })
  issueOAuthClient(@Args(() => IssueOAuthClientArgs) args: IssueOAuthClientArgs, @Ctx() ctx: Context) {
    return new CredentialsService(ctx.db).issueOAuthClient(viewerId(ctx), args.redirectUris);
  }

  @Mutation(() => DeleteOAuthClientPayload, { description: 'Delete the confidential OAuth client and revoke its tokens' })
  deleteOAuthClient(@Ctx() ctx: Context) {
    return new CredentialsService(ctx.db).deleteOAuthClient(viewerId(ctx));
  }
}
