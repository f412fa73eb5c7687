import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Difficulty } from '../shared/enums';
import { ArenaAverageEntry } from '../arena/arena.types';

@ObjectType({ simpleResolvers: true })
export class BpiCalcSong {
  @Field(() => String) title!: string;
  @Field(() => Difficulty) difficulty!: Difficulty;
  @Field(() => Int) difficultyLevel!: number;
  @Field(() => Int) notes!: number;
}

@ObjectType({ simpleResolvers: true })
export class BpiCalcRank {
  @Field(() => Int, { nullable: true, description: 'Estimated rank among all players (total-BPI formula applied to this BPI)' })
  estimatedRank!: number | null;
  @Field(() => Int, { nullable: true, description: '1 + players on this server with a strictly higher EX score (includeRank only)' })
  bpimRank!: number | null;
  @Field(() => Int, { nullable: true, description: 'Players of this chart on this server in that version (includeRank only)' })
  bpimTotal!: number | null;
}

@ObjectType({ simpleResolvers: true })
export class BpiCalcMetadata {
  @Field(() => String) version!: string;
  @Field(() => [ArenaAverageEntry], { nullable: true, description: 'A1–A5 averages (null: not a level 11/12 chart or no data)' })
  arenaAverages!: ArenaAverageEntry[] | null;
}

@ObjectType({ simpleResolvers: true, description: 'BPI of one EX score on one chart, from the current definition' })
export class BpiCalcResult {
  @Field(() => BpiCalcSong) song!: BpiCalcSong;
  @Field(() => Float, { nullable: true }) bpi!: number | null;
  @Field(() => BpiCalcRank) rank!: BpiCalcRank;
  @Field(() => BpiCalcMetadata) metadata!: BpiCalcMetadata;
}
