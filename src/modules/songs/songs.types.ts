import { Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { Difficulty, PlayStyle, RadarCategory } from '../../domain/constants';

registerEnumType(PlayStyle, { name: 'PlayStyle', description: 'SP (single play) or DP (double play)' });
registerEnumType(Difficulty, { name: 'Difficulty' });
registerEnumType(RadarCategory, { name: 'RadarCategory', description: 'Radar category a chart belongs to' });

@ObjectType('ChartDefinition', { description: 'A BPI definition of a chart, as published in one definitions release' })
export class ChartDefinitionType {
  @Field(() => String) definitionsVersion!: string;
  @Field(() => Int, { nullable: true, description: 'World-record EX score (null: unknown)' }) wr!: number | null;
  @Field(() => Int, { nullable: true, description: 'Kaiden average EX score (null: unknown)' }) kaidenAvg!: number | null;
  @Field(() => Float, { nullable: true, description: 'Exponent; null means the default 1.175' }) coef!: number | null;
  @Field(() => Int) notes!: number;
  @Field(() => Boolean) isCurrent!: boolean;
}

@ObjectType('Chart', { description: 'One chart of a song (play style + difficulty)' })
export class ChartType {
  @Field(() => ID) id!: number;
  @Field(() => Int) songId!: number;
  @Field(() => PlayStyle) playStyle!: PlayStyle;
  @Field(() => Difficulty) difficulty!: Difficulty;
  @Field(() => Int) level!: number;
  @Field(() => Int) notes!: number;
  @Field(() => String) bpm!: string;
  @Field(() => String, { nullable: true }) textage!: string | null;
  @Field(() => Int, { nullable: true }) releasedVersion!: number | null;
  @Field(() => String, { nullable: true, description: 'Game version from which the chart is removed' })
  removedInVersion!: string | null;
  @Field(() => RadarCategory, { nullable: true }) radarCategory!: RadarCategory | null;
}

@ObjectType('Song')
export class SongType {
  @Field(() => ID) id!: number;
  @Field(() => String) title!: string;
  @Field(() => String, { nullable: true }) genre!: string | null;
  @Field(() => String, { nullable: true }) artist!: string | null;
}

@ObjectType()
export class SongConnection extends Connection(SongType, 'Song') {}

@ObjectType({ description: 'What this server is and what it holds' })
export class ServerInfo {
  @Field(() => String) name!: string;
  @Field(() => String) version!: string;
  @Field(() => String, { description: 'pglite or postgres' }) database!: string;
  @Field(() => String, { nullable: true }) definitionsVersion!: string | null;
  @Field(() => Int) chartCount!: number;
  @Field(() => [String]) gameVersions!: string[];
  @Field(() => String) latestVersion!: string;
}
