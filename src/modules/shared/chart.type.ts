import { Field, Int, ObjectType } from 'type-graphql';
import { NodeInterface } from '../../graphql/global-id';
import { Difficulty, PlayStyle, RadarCategory } from './enums';

/**
 * One chart of a song. Shared by every area: areas add their own fields to it with
 * `@Resolver(() => ChartType)` + `@FieldResolver` (catalogue: song, definition; notes: songNotes;
 * arena: arenaAverages; rankings: attributes…). This file imports no area.
 */
@ObjectType('Chart', { implements: NodeInterface, description: 'One chart of a song (play style + difficulty)' })
export class ChartType {
  @Field(() => Int, {
    name: 'databaseId',
    description: 'Database id of the chart (the `chartId` of other types and arguments)',
  })
  id!: number;
  @Field(() => Int, { description: 'Database id of the song' }) songId!: number;
  @Field(() => PlayStyle, { description: 'SP or DP' }) playStyle!: PlayStyle;
  @Field(() => Difficulty, { description: 'Difficulty slot' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'Level, 1–12' }) level!: number;
  @Field(() => Int, {
    nullable: true,
    description: 'Note count; null = unknown (a chart learned from a score export, not yet in the definitions)',
  })
  notes!: number | null;
  @Field(() => String, {
    description: 'BPM as the definitions write it: one number, or "min-max" for a chart whose BPM changes',
  })
  bpm!: string;
  @Field(() => String, {
    nullable: true,
    description: 'Path of the chart\'s page on textage.cc (relative, e.g. "33/abc.html"); null when unknown',
  })
  textage!: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Game version the song was released in (e.g. 24); null when unknown',
  })
  releasedVersion!: number | null;
  @Field(() => String, { nullable: true, description: 'Game version from which the chart is removed' })
  removedInVersion!: string | null;
  @Field(() => RadarCategory, {
    nullable: true,
    description: 'Radar category the chart is strongest in; null when not categorised',
  })
  radarCategory!: RadarCategory | null;
}
