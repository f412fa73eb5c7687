import { Field, ID, ObjectType } from 'type-graphql';

/**
 * A player. Profile fields, stats, relationships and per-area fields are added by field
 * resolvers (users, scores, social…); see users.resolver.ts.
 */
@ObjectType('User')
export class UserType {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'User name (2–20 characters)' }) name!: string;
  @Field(() => Boolean) isPublic!: boolean;
  @Field(() => Date) createdAt!: Date;
}
