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

@ObjectType('BpiV2Fit', {
  description:
    'One run of the BPI V2 fit (issue #19): what it fitted, from which bests, and how well — held-out quality on 10 % of the bests (fold 0 of 10) and against V1 on the charts with both models',
})
export class BpiV2FitType {
  @Field(() => Int, { name: 'runId', description: 'Run number (increasing)' }) id!: number;
  @Field(() => String, { description: 'The definitions vintage whose charts were fitted' }) definitionsVersion!: string;
  @Field(() => String, { description: 'The game version whose bests were read' }) gameVersion!: string;
  @Field(() => String, { description: 'running, succeeded or failed' }) status!: string;
  @Field(() => String, { nullable: true, description: 'Phase while running: read, prepare, fit, anchor, evaluate, store' }) phase!: string | null;
  @Field(() => Float, { description: 'Progress, 0 to 1' }) progress!: number;
  @Field(() => Date) startedAt!: Date;
  @Field(() => Date, { nullable: true }) finishedAt!: Date | null;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => Int, { description: "Bests read (the version's, every chart)" }) bestsRead!: number;
  @Field(() => Int, { description: 'Bests the fit used (fitted players on fitted charts)' }) observations!: number;
  @Field(() => Int, { description: 'Players fitted (≥ 10 fitted charts each)' }) players!: number;
  @Field(() => Int, { description: 'Charts given parameters (≥ 30 fitted players each by default)' }) charts!: number;
  @Field(() => Int) iterations!: number;
  @Field(() => Boolean) converged!: boolean;
  @Field(() => Float, { nullable: true, description: "Skill level of BPI 0 (median over charts of the kaiden average's level)" }) z0!: number | null;
  @Field(() => Float, { nullable: true, description: 'Typical skill gap from BPI 0 to the world record (BPI 100)' }) gap!: number | null;
  @Field(() => Float, { nullable: true, description: 'In-sample RMSE of t = −ln(max EX − EX)' }) rmseT!: number | null;
  @Field(() => Float, { nullable: true, description: 'In-sample share of the within-chart variance of t explained' }) r2WithinChart!: number | null;
  @Field(() => Int, { nullable: true, description: 'Held-out bests predicted (null: the evaluation was not run)' }) heldOutObservations!: number | null;
  @Field(() => Float, { nullable: true, description: "Held-out RMSE of t (V2 prediction from the player's other charts)" }) heldOutRmseT!: number | null;
  @Field(() => Float, { nullable: true, description: 'Held-out mean absolute error of the predicted EX score' }) heldOutMaeEx!: number | null;
  @Field(() => Float, { nullable: true, description: 'Held-out R² of t within charts' }) heldOutR2!: number | null;
  @Field(() => Int, { nullable: true, description: 'Held-out bests on charts with both models (the V1 comparison)' }) v1Observations!: number | null;
  @Field(() => Float, { nullable: true, description: 'On those bests: V2\'s RMSE of t' }) v2RmseTVsV1!: number | null;
  @Field(() => Float, { nullable: true, description: 'On those bests: V1\'s RMSE of t (the EX at the player\'s median V1 BPI elsewhere)' }) v1RmseT!: number | null;
  @Field(() => Float, { nullable: true, description: 'On those bests: V2\'s mean absolute EX error' }) v2MaeExVsV1!: number | null;
  @Field(() => Float, { nullable: true, description: 'On those bests: V1\'s mean absolute EX error' }) v1MaeEx!: number | null;
  @Field(() => Float, { nullable: true, description: 'Agreement: RMSE between the V2 and V1 BPIs of those bests' }) bpiRmse!: number | null;
  @Field(() => Float, { nullable: true, description: 'Agreement: mean (V2 BPI − V1 BPI) of those bests' }) bpiMeanDiff!: number | null;
  @Field(() => Float, { nullable: true, description: 'Agreement: Spearman rank correlation of the two BPIs of those bests' }) bpiSpearman!: number | null;
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
