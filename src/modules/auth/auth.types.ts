import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLURL } from 'graphql-scalars';
import type { User } from '../../generated/prisma/client';
import { UserType } from '../shared/user.type';

@ObjectType('Viewer', {
  description:
    'Value type: the caller of this request. Signed out: signedIn false, exists false. Signed in with an identity that has no profile yet (an external OpenID Connect identity before createProfile): signedIn true, exists false, user null. Otherwise exists true and user is the caller.',
})
export class ViewerType {
  @Field(() => Boolean, {
    description:
      'Whether the request carries a valid credential (an access token or an ID token of the configured provider)',
  })
  signedIn!: boolean;
  @Field(() => Boolean, {
    description: 'Whether the signed-in identity has a profile (a local user); false when signed out',
  })
  exists!: boolean;
  @Field(() => UserType, { nullable: true, description: "The caller's user when it exists (the same object as `me`)" })
  user!: User | null;
  @Field(() => Boolean, { description: 'True for a signed-in identity without a profile: it may call createProfile' })
  canCreateProfile!: boolean;
}

@ObjectType({ description: 'An access token obtained with an API key' })
export class AccessTokenPayload {
  @Field(() => String, { description: 'Bearer token for the Authorization header' }) token!: string;
  @Field(() => Int, { description: 'Seconds until the token expires' }) expiresIn!: number;
}

@ObjectType({ description: 'Value type: whether the caller has an API key (never the key itself)' })
export class ApiKeyStatus {
  @Field(() => Boolean, { description: 'True when the caller has an API key' }) exists!: boolean;
  @Field(() => Date, { nullable: true, description: 'When the current key was issued' }) createdAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'Last four characters, e.g. "****abcd"' }) hint!: string | null;
  @Field(() => Date, { nullable: true, description: 'Last exchange of the key for a token' }) lastUsedAt!: Date | null;
}

@ObjectType({ description: 'A newly issued API key: shown only in this response' })
export class IssueApiKeyPayload {
  @Field(() => String, { description: 'The key; store it now, it cannot be shown again' }) apiKey!: string;
  @Field(() => String, {
    description: 'Last four characters of the key, e.g. "****abcd" (what apiKeyStatus shows later)',
  })
  hint!: string;
  @Field(() => Date, { description: 'When the key was issued' }) createdAt!: Date;
}

@ObjectType({ description: "Value type: the caller's confidential OAuth client (never the secret)" })
export class OAuthClientStatus {
  @Field(() => Boolean, { description: 'True when the caller has a client' }) exists!: boolean;
  @Field(() => ID, { nullable: true, description: 'The client id; null when there is no client' }) clientId!:
    string | null;
  @Field(() => [GraphQLURL], {
    nullable: true,
    description: 'Redirect URIs the client may use; null when there is no client',
  })
  redirectUris!: string[] | null;
  @Field(() => Date, { nullable: true, description: 'When the client was issued; null when there is no client' })
  createdAt!: Date | null;
}

@ObjectType({ description: 'A newly issued confidential OAuth client: the secret is shown only here' })
export class IssueOAuthClientPayload {
  @Field(() => ID, { description: 'The client id (public; send it with the secret to the token endpoint)' })
  clientId!: string;
  @Field(() => String, { description: 'The client secret; store it now, it cannot be shown again' })
  clientSecret!: string;
  @Field(() => [GraphQLURL], { description: 'Redirect URIs the client may use (exact match)' }) redirectUris!: string[];
  @Field(() => Date, { description: 'When the client was issued' }) createdAt!: Date;
}

@ObjectType({ description: "Result of deleting the caller's OAuth client (its tokens stop working)" })
export class DeleteOAuthClientPayload {
  @Field(() => Boolean, { description: 'False when there was no client to delete' }) deleted!: boolean;
}
