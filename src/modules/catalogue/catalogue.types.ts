import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { NodeInterface } from '../../graphql/global-id';

@ObjectType('ChartDefinition', { description: 'A BPI definition of a chart, as published in one definitions release' })
export class ChartDefinitionType {
  @Field(() => String) definitionsVersion!: string;
  @Field(() => Int, { nullable: true, description: 'World-record EX score (null: unknown)' }) wr!: number | null;
  @Field(() => Int, { nullable: true, description: 'Kaiden average EX score (null: unknown)' }) kaidenAvg!: number | null;
  @Field(() => Float, { nullable: true, description: 'Exponent; null means the default 1.175' }) coef!: number | null;
  @Field(() => Int) notes!: number;
  @Field(() => Boolean) isCurrent!: boolean;
}

@ObjectType('ExForBpi', {
  description:
    'Value type: the EX score needed on a chart for a target BPI under its current definition (../shared/spec/bpi.md, the inverse: the smallest whole EX score the formula gives, clamped to [0, 2·notes])',
})
export class ExForBpiType {
  @Field(() => Float, { description: 'The target BPI asked for' }) targetBpi!: number;
  @Field(() => Int, { description: 'EX score needed (rounded up, at most the maximum 2·notes)' }) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'The BPI of that EX score (the forward formula; null: no value)' }) bpi!: number | null;
  @Field(() => Float, { description: 'exScore / (2·notes)' }) rate!: number;
  @Field(() => Boolean, { description: 'False when even the maximum EX score stays below the target' }) reachable!: boolean;
}

@ObjectType('Song', { implements: NodeInterface, description: 'A song: title, genre, artist and its charts' })
export class SongType {
  @Field(() => Int, { name: 'databaseId', description: 'Database id of the song (the `songId` of other types and arguments)' }) id!: number;
  @Field(() => String) title!: string;
  @Field(() => String, { nullable: true }) genre!: string | null;
  @Field(() => String, { nullable: true }) artist!: string | null;
}

@ObjectType({ description: 'A page of songs of the catalogue' })
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

@ObjectType()
export class DefinitionsImportResult {
  @Field(() => String) version!: string;
  @Field(() => Int) added!: number;
  @Field(() => Int) changed!: number;
  @Field(() => Int) unchanged!: number;
  @Field(() => Int) removed!: number;
  @Field(() => Int, { description: 'Charts no longer listed: their definition was retired' }) absent!: number;
  @Field(() => Int) duplicates!: number;
  @Field(() => [String], { description: 'Entries that could not be imported, with the reason' }) problems!: string[];
  @Field(() => Boolean, { description: 'A recompute of derived values was started' }) recomputeStarted!: boolean;
}

@ObjectType()
export class RecomputeStatus {
  @Field(() => Boolean) running!: boolean;
  @Field(() => String, { nullable: true }) step!: string | null;
  @Field(() => Int) done!: number;
  @Field(() => Int) total!: number;
  @Field(() => Date, { nullable: true }) startedAt!: Date | null;
  @Field(() => Date, { nullable: true }) finishedAt!: Date | null;
  @Field(() => String, { nullable: true }) error!: string | null;
}

@ObjectType('RadarCategoryImportPayload', { description: 'Result of importing radar categories ([{title, difficulty, top}])' })
export class RadarCategoryImportPayload {
  @Field(() => Int, { description: 'entries in the file' }) total!: number;
  @Field(() => Int, { description: 'entries matching an SP chart of the catalogue' }) matched!: number;
  @Field(() => Int, { description: 'charts whose category changed' }) updated!: number;
  @Field(() => Int, { description: 'entries with no matching chart' }) unmatched!: number;
  @Field(() => Int, { description: 'malformed entries skipped' }) invalid!: number;
  @Field(() => [String], { description: 'up to 20 unmatched "title (DIFFICULTY)"' }) unmatchedSamples!: string[];
}
