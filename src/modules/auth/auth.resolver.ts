import { Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { viewerId, type Context } from '../../graphql/context';
import { UserType } from '../shared/user.type';
import { IssueOAuthClientArgs } from './auth.inputs';
import {
  ViewerType,
  AccessTokenPayload,
  ApiKeyStatus,
  DeleteOAuthClientPayload,
  IssueApiKeyPayload,
  IssueOAuthClientPayload,
  OAuthClientStatus,
} from './auth.types';

/** Identity and the caller's own credentials. Rules: src/graphql/rules.ts ('auth' section). */
@Resolver()
export class AuthResolver {
  @Query(() => UserType, {
    nullable: true,
    description:
      "The signed-in caller's user; null (no error) when signed out or when the signed-in identity has no profile yet — `viewer` tells those two apart",
  })
  me(@Ctx() ctx: Context) {
    return ctx.services.users.me(ctx.viewer?.id ?? null);
  }

  @Query(() => ViewerType, {
    description:
      "Who is calling: signed in or not, and whether that identity has a profile (`exists`, as the reference's GET /api/v1/me); never an error",
  })
  viewer(@Ctx() ctx: Context) {
    return ctx.services.users.viewer();
  }

  @Query(() => UserType, {
    nullable: true,
    description:
      "The signed-in user deciding on an OAuth consent (GET /api/oauth/authorize, POST /api/oauth/authorize/consent): the caller's own credential only, never a third-party app's token; null when the user no longer exists",
  })
  oauthConsentUser(@Ctx() ctx: Context) {
    return ctx.services.users.user(viewerId(ctx));
  }

  @Mutation(() => AccessTokenPayload, {
    description: 'Exchange the API key sent in the X-API-Key header for an access token (20 per minute per IP)',
  })
  exchangeApiKey(@Ctx() ctx: Context) {
    return ctx.services.auth.exchangeApiKey();
  }

  @Query(() => ApiKeyStatus, {
    description: 'Whether the caller has an API key, when it was issued, and its last four characters',
  })
  apiKeyStatus(@Ctx() ctx: Context) {
    return ctx.services.auth.credentials.apiKeyStatus(viewerId(ctx));
  }

  @Mutation(() => IssueApiKeyPayload, {
    description: 'Issue or reissue the API key (shown once; the previous key stops working at once)',
  })
  issueApiKey(@Ctx() ctx: Context) {
    return ctx.services.auth.credentials.issueApiKey(viewerId(ctx));
  }

  @Query(() => OAuthClientStatus, { description: "The caller's confidential OAuth client (never its secret)" })
  oauthClient(@Ctx() ctx: Context) {
    return ctx.services.auth.credentials.oauthClient(viewerId(ctx));
  }

  @Mutation(() => IssueOAuthClientPayload, {
    description:
      'Issue or reissue the confidential OAuth client (id + secret shown once; a reissue revokes the old client and its tokens)',
  })
  issueOAuthClient(@Args(() => IssueOAuthClientArgs) args: IssueOAuthClientArgs, @Ctx() ctx: Context) {
    return ctx.services.auth.credentials.issueOAuthClient(viewerId(ctx), args.redirectUris);
  }

  @Mutation(() => DeleteOAuthClientPayload, {
    description: 'Delete the confidential OAuth client and revoke its tokens',
  })
  deleteOAuthClient(@Ctx() ctx: Context) {
    return ctx.services.auth.credentials.deleteOAuthClient(viewerId(ctx));
  }
}
