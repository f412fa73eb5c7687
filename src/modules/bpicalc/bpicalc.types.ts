import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Difficulty } from '../shared/enums';
import { ArenaAverageEntry } from '../arena/arena.types';
import { GameVersionScalar } from '../../graphql/scalars';

@ObjectType({ simpleResolvers: true, description: 'Value type: the chart a BPI was computed for' })
export class BpiCalcSong {
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => Difficulty, { description: 'Difficulty slot' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Chart level, 1–12' }) difficultyLevel!: number;
  @Field(() => Int, { description: 'Note count' }) notes!: number;
}

@ObjectType({
  simpleResolvers: true,
  description: 'Value type: where an EX score ranks (estimated world rank, and rank on this server)',
})
export class BpiCalcRank {
  @Field(() => Int, {
    nullable: true,
    description: 'Estimated rank among all players (total-BPI formula applied to this BPI)',
  })
  estimatedRank!: number | null;
  @Field(() => Int, {
    nullable: true,
    description: '1 + players on this server with a strictly higher EX score (includeRank only)',
  })
  bpimRank!: number | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Players of this chart on this server in that version (includeRank only)',
  })
  bpimTotal!: number | null;
}

@ObjectType({
  simpleResolvers: true,
  description: 'Value type: the definition version and the arena averages of the chart',
})
export class BpiCalcMetadata {
  @Field(() => GameVersionScalar, { description: 'Game version of the definition used' }) version!: string;
  @Field(() => [ArenaAverageEntry], {
    nullable: true,
    description: 'A1–A5 averages (null: not a level 11/12 chart or no data)',
  })
  arenaAverages!: ArenaAverageEntry[] | null;
}

@ObjectType({
  simpleResolvers: true,
  description: 'Value type: BPI of one EX score on one chart, from the current definition',
})
export class BpiCalcResult {
  @Field(() => BpiCalcSong, { description: 'The chart' }) song!: BpiCalcSong;
  @Field(() => Float, {
    nullable: true,
    description: 'BPI of the EX score (−15 at the floor); null when the chart has no definition',
  })
  bpi!: number | null;
  @Field(() => BpiCalcRank, { description: 'Estimated and server ranks of the score' }) rank!: BpiCalcRank;
  @Field(() => BpiCalcMetadata, { description: 'Definition version and arena averages' }) metadata!: BpiCalcMetadata;
}
