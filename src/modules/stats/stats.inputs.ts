import { ArgsType, Field, Int } from 'type-graphql';
import { ArenaClass, Difficulty } from '../shared/enums';
import { ConnectionArgs } from '../../graphql/connection';

@ArgsType()
export class GlobalRankingArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Game version (default: the latest)' }) version?: string | null;
  @Field(() => String, { nullable: true, description: 'Only players of this area (prefecture / region, exact name as in the official arena data)' })
  area?: string | null;
  @Field(() => ArenaClass, { nullable: true, description: 'Only players of this arena class' }) arenaClass?: ArenaClass | null;
}

@ArgsType()
export class RecommendedArgs {
  @Field(() => String, { nullable: true }) version?: string | null;
  @Field(() => [Int], { nullable: true, description: 'Levels (11, 12); empty = all' }) level?: number[] | null;
  @Field(() => [Difficulty], { nullable: true, description: 'HYPER, ANOTHER, LEGGENDARIA; empty = all' }) difficulty?: Difficulty[] | null;
  @Field(() => Int, { nullable: true, description: '1–100, default 10' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: '≥ 0, default 0' }) offset?: number | null;
}

@ArgsType()
export class TotalBpiHistoryArgs {
  @Field(() => String, { nullable: true }) version?: string | null;
  @Field(() => String, { nullable: true, description: 'day (default), week or month' }) groupBy?: string | null;
}
