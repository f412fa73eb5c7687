import { Field, Float, Int, ObjectType } from 'type-graphql';
import { ArenaClass } from '../shared/enums';

@ObjectType({ simpleResolvers: true })
export class ArenaClassCount {
  @Field(() => ArenaClass) arenaClass!: ArenaClass;
  @Field(() => Int) count!: number;
}

@ObjectType({ description: 'The official arena class distribution (latest imported snapshot of a version)' })
export class OfficialArena {
  @Field(() => String) version!: string;
  @Field(() => Date) fetchedAt!: Date;
  @Field(() => Int, { description: 'Players in the official ranking snapshot' }) totalPlayers!: number;
  @Field(() => Int, { description: 'Of them, players registered here (matched by game id)' }) totalMatched!: number;
  @Field(() => [ArenaClassCount]) distribution!: ArenaClassCount[];
}

@ObjectType()
export class ArenaImportResult {
  @Field(() => Int) snapshotId!: number;
  @Field(() => String) version!: string;
  @Field(() => Int) players!: number;
  @Field(() => Int) matchedUsers!: number;
  @Field(() => Int) skipped!: number;
}

@ObjectType({ simpleResolvers: true, description: 'Average of the players of one arena class on a chart' })
export class ArenaAverageEntry {
  @Field(() => ArenaClass) arenaClass!: ArenaClass;
  @Field(() => Float) avgExScore!: number;
  @Field(() => Float, { description: '% of the maximum EX score' }) rate!: number;
  @Field(() => Int) count!: number;
  @Field(() => Float, { nullable: true }) avgBpi!: number | null;
}
