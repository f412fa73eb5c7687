import { ArgsType, Field } from 'type-graphql';

@ArgsType()
export class IssueOAuthClientArgs {
  @Field(() => [String], {
    description: 'Redirect URIs: https, or http only for localhost/127.0.0.1; no fragment (1–10)',
  })
  redirectUris!: string[];
}
