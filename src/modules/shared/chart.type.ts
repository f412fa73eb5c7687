import { Field, ID, Int, ObjectType } from 'type-graphql';
import { NodeInterface } from '../../graphql/global-id';
import { Difficulty, PlayStyle, RadarCategory } from './enums';

/**
 * One chart of a song. Shared by every area: areas add their own fields to it with
 * `@Resolver(() => ChartType)` + `@FieldResolver` (catalogue: song, definition; notes: songNotes;
 * arena: arenaAverages; rankings: attributes…). This file imports no area.
 */
@ObjectType('Chart', { implements: NodeInterface, description: 'One chart of a song (play style + difficulty)' })
export class ChartType {
  @Field(() => Int, { name: 'databaseId', description: 'Database id of the chart (the `chartId` of other types and arguments)' }) id!: number;
  @Field(() => Int) songId!: number;
  @Field(() => PlayStyle) playStyle!: PlayStyle;
  @Field(() => Difficulty) difficulty!: Difficulty;
  @Field(() => Int) level!: number;
  @Field(() => Int, { nullable: true, description: 'Note count; null = unknown (a chart learned from a score export, not yet in the definitions)' })
  notes!: number | null;
  @Field(() => String) bpm!: string;
  @Field(() => String, { nullable: true }) textage!: string | null;
  @Field(() => Int, { nullable: true }) releasedVersion!: number | null;
  @Field(() => String, { nullable: true, description: 'Game version from which the chart is removed' })
  removedInVersion!: string | null;
  @Field(() => RadarCategory, { nullable: true }) radarCategory!: RadarCategory | null;
}
