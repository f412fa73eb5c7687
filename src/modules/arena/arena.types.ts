import { Field, Float, Int, ObjectType } from 'type-graphql';
import { ArenaClass } from '../shared/enums';
import { GameVersionScalar } from '../../graphql/scalars';
import { GraphQLNonNegativeInt } from '../../graphql/scalars';

@ObjectType({ simpleResolvers: true, description: 'Value type: number of players of one arena class' })
export class ArenaClassCount {
  @Field(() => ArenaClass, { description: 'The arena class' }) arenaClass!: ArenaClass;
  @Field(() => Int, { description: 'Players in that class' }) count!: number;
}

@ObjectType({
  description: 'Value type: the official arena class distribution (latest imported snapshot of a version)',
})
export class OfficialArena {
  @Field(() => GameVersionScalar, { description: 'Game version' }) version!: string;
  @Field(() => Date, { description: 'When the snapshot was taken' }) fetchedAt!: Date;
  @Field(() => GraphQLNonNegativeInt, { description: 'Players in the official ranking snapshot' })
  totalPlayers!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Of them, players registered here (matched by game id)' })
  totalMatched!: number;
  @Field(() => [ArenaClassCount], { description: 'Players per arena class, A1 first' })
  distribution!: ArenaClassCount[];
}

@ObjectType({ description: 'Value type: what an official arena import stored' })
export class ArenaImportResult {
  @Field(() => Int, { description: 'Id of the snapshot stored' }) snapshotId!: number;
  @Field(() => GameVersionScalar, { description: 'Game version of the snapshot' }) version!: string;
  @Field(() => GraphQLNonNegativeInt, { description: 'Players in the snapshot' }) players!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Of them, players registered here (matched by game id)' })
  matchedUsers!: number;
  @Field(() => GraphQLNonNegativeInt, { description: 'Rows skipped as unreadable (counted; the rest is stored)' })
  skipped!: number;
}

@ObjectType({ simpleResolvers: true, description: 'Value type: average of the players of one arena class on a chart' })
export class ArenaAverageEntry {
  @Field(() => ArenaClass, { description: 'The arena class' }) arenaClass!: ArenaClass;
  @Field(() => Float, { description: "Average EX score of the class's players on the chart" }) avgExScore!: number;
  @Field(() => Float, { description: '% of the maximum EX score' }) rate!: number;
  @Field(() => Int, { description: 'Players of the class with a score on the chart' }) count!: number;
  @Field(() => Float, {
    nullable: true,
    description: 'BPI of the average EX score; null when the chart has no definition',
  })
  avgBpi!: number | null;
}
