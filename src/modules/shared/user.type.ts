import { Field, ObjectType } from 'type-graphql';
import { NodeInterface } from '../../graphql/global-id';
import { GraphQLUUID } from 'graphql-scalars';

/**
 * A player. Shared by every area: areas add their own fields with `@Resolver(() => UserType)` +
 * `@FieldResolver` (users: profile fields; scores: scores, bestEver…; logs: batches…; stats:
 * stats, recommended…; rivals: compare). This file imports no area.
 *
 * Every field of User reveals a player's data, so every field needs a rule in
 * src/graphql/rules.ts (`User.<field>`), applied by the rule wrapper (a start-up check and the
 * authorization matrix fail on a field without one). For a player the viewer may not see
 * (private, not self, not an approved follower) the VISIBLE fields are null and `isMasked` is
 * true; `id`, `name`, `isPublic`, `createdAt` and `relationship` stay. In the follow connections
 * such a member is masked completely (as the reference's follow lists): a random id that names
 * nobody (new on every request), the name MASKED_USER_NAME, `createdAt` the Unix epoch.
 */
@ObjectType('User', { implements: NodeInterface, description: 'A player' })
export class UserType {
  @Field(() => GraphQLUUID, {
    name: 'databaseId',
    description:
      'Database id of the user (a UUID; the `userId` of other types and arguments); in a follow list, for a member the viewer may not see (isMasked), a random id that names nobody (new on every request)',
  })
  id!: string;
  @Field(() => String, {
    description:
      'User name (2–20 characters); "非公開ユーザー" in follow lists for a private user the viewer may not see',
  })
  name!: string;
  @Field(() => Boolean, {
    description: "True when anyone may see the player's data; otherwise only the player, approved followers and admins",
  })
  isPublic!: boolean;
  @Field(() => Date, {
    description: 'When the account was created (the Unix epoch for a masked member of a follow list)',
  })
  createdAt!: Date;
}
