import { ArgsType, Field } from 'type-graphql';
import { ArenaClass } from '../../domain/constants';
import { ConnectionArgs } from '../../graphql/connection';

@ArgsType()
export class GlobalRankingArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Game version (default: the latest)' }) version?: string | null;
  @Field(() => String, { nullable: true, description: 'Only players of this area (prefecture / region, exact name as in the official arena data)' })
  area?: string | null;
  @Field(() => ArenaClass, { nullable: true, description: 'Only players of this arena class' }) arenaClass?: ArenaClass | null;
}
