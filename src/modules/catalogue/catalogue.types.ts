import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { NodeInterface } from '../../graphql/global-id';
import { GameVersionScalar } from '../../graphql/scalars';

@ObjectType('ChartDefinition', {
  description: 'Value type: a BPI definition of a chart, as published in one definitions release',
})
export class ChartDefinitionType {
  @Field(() => String, { description: 'The definitions release that published it' }) definitionsVersion!: string;
  @Field(() => Int, { nullable: true, description: 'World-record EX score (null: unknown)' }) wr!: number | null;
  @Field(() => Int, { nullable: true, description: 'Kaiden average EX score (null: unknown)' }) kaidenAvg!:
    number | null;
  @Field(() => Float, { nullable: true, description: 'Exponent; null means the default 1.175' }) coef!: number | null;
  @Field(() => Int, { description: 'Note count in that release' }) notes!: number;
  @Field(() => Boolean, { description: 'True for the definition in force (BPI is computed from it)' })
  isCurrent!: boolean;
}

@ObjectType('ExForBpi', {
  description:
    'Value type: the EX score needed on a chart for a target BPI under its current definition (docs/domain/bpi.md#ex-score-for-a-target-bpi-inverse: the smallest whole EX score the formula gives, clamped to [0, 2·notes])',
})
export class ExForBpiType {
  @Field(() => Float, { description: 'The target BPI asked for' }) targetBpi!: number;
  @Field(() => Int, { description: 'EX score needed (rounded up, at most the maximum 2·notes)' }) exScore!: number;
  @Field(() => Float, { nullable: true, description: 'The BPI of that EX score (the forward formula; null: no value)' })
  bpi!: number | null;
  @Field(() => Float, { description: 'exScore / (2·notes)' }) rate!: number;
  @Field(() => Boolean, { description: 'False when even the maximum EX score stays below the target' })
  reachable!: boolean;
}

@ObjectType('Song', { implements: NodeInterface, description: 'A song: title, genre, artist and its charts' })
export class SongType {
  @Field(() => Int, {
    name: 'databaseId',
    description: 'Database id of the song (the `songId` of other types and arguments)',
  })
  id!: number;
  @Field(() => String, { description: 'Song title' }) title!: string;
  @Field(() => String, { nullable: true, description: 'Genre as shown in the game; null when unknown' }) genre!:
    string | null;
  @Field(() => String, { nullable: true, description: 'Artist; null when unknown' }) artist!: string | null;
}

@ObjectType({ description: 'A page of songs of the catalogue' })
export class SongConnection extends Connection(SongType, 'Song') {}

@ObjectType({ description: 'Value type: what this server is and what it holds' })
export class ServerInfo {
  @Field(() => String, { description: 'Server name (bpigraph)' }) name!: string;
  @Field(() => String, { description: 'Server release (package version)' }) version!: string;
  @Field(() => String, { description: 'pglite or postgres' }) database!: string;
  @Field(() => String, {
    nullable: true,
    description: 'Version of the definitions release in force; null before any import',
  })
  definitionsVersion!: string | null;
  @Field(() => Int, { description: 'Charts in the catalogue' }) chartCount!: number;
  @Field(() => [GameVersionScalar], { description: 'Game versions known to the server, oldest first' })
  gameVersions!: string[];
  @Field(() => GameVersionScalar, { description: 'The latest game version (the default of every version argument)' })
  latestVersion!: string;
}

@ObjectType({ description: 'Value type: what a definitions import changed' })
export class DefinitionsImportResult {
  @Field(() => String, { description: 'Version of the definitions release imported' }) version!: string;
  @Field(() => Int, { description: 'Charts new in the catalogue' }) added!: number;
  @Field(() => Int, { description: 'Charts whose definition changed (a new definition is now current)' })
  changed!: number;
  @Field(() => Int, { description: 'Charts whose definition is the same' }) unchanged!: number;
  @Field(() => Int, { description: 'Charts this release marks as removed from the game (removedInVersion set)' })
  removed!: number;
  @Field(() => Int, { description: 'Charts no longer listed: their definition was retired' }) absent!: number;
  @Field(() => Int, {
    description: 'Entries listed twice in the file (the later one wins; a conflicting pair is reported in problems)',
  })
  duplicates!: number;
  @Field(() => [String], { description: 'Entries that could not be imported, with the reason' }) problems!: string[];
  @Field(() => Boolean, { description: 'A recompute of derived values was started' }) recomputeStarted!: boolean;
}

@ObjectType({
  description:
    'Value type: progress of the recompute of derived values (totals, arena averages, rankings), as the whole cluster sees it',
})
export class RecomputeStatus {
  @Field(() => Boolean, { description: 'True while a recompute runs' }) running!: boolean;
  @Field(() => String, {
    nullable: true,
    description: 'Name of the step running (or last run); null before the first run',
  })
  step!: string | null;
  @Field(() => Int, { description: 'Items done in the current step' }) done!: number;
  @Field(() => Int, { description: 'Items in the current step' }) total!: number;
  @Field(() => Date, { nullable: true, description: 'When the last run started; null before the first run' })
  startedAt!: Date | null;
  @Field(() => Date, {
    nullable: true,
    description: 'When the last run finished; null while running or before the first run',
  })
  finishedAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'Error message of the last run; null when it succeeded' })
  error!: string | null;
}

@ObjectType('StartRecomputePayload', { description: 'Result of starting the recompute of derived values' })
export class StartRecomputePayload {
  @Field(() => Boolean, {
    description: 'True when this call started a run; false when one was already running (it goes on)',
  })
  started!: boolean;
  @Field(() => RecomputeStatus, { description: 'The job right after the call (poll recomputeStatus for progress)' })
  status!: RecomputeStatus;
}

@ObjectType('FitBpiV2Payload', { description: 'Result of starting the BPI V2 fit' })
export class FitBpiV2Payload {
  @Field(() => Boolean, {
    description: 'True when this call started a fit; false when one was already running (it goes on)',
  })
  started!: boolean;
  @Field(() => BpiV2FitType, {
    nullable: true,
    description: 'The latest run right after the call (poll bpiV2FitStatus for progress)',
  })
  status!: BpiV2FitType | null;
}

@ObjectType('BpiV2Fit', {
  description:
    'Value type: one run of the BPI V2 fit (issue #19), as stored when read: what it fitted, from which bests, and how well — held-out quality on 10 % of the bests (fold 0 of 10) and against V1 on the charts with both models',
})
export class BpiV2FitType {
  @Field(() => Int, { name: 'runId', description: 'Run number (increasing)' }) id!: number;
  @Field(() => String, { description: 'The definitions vintage whose charts were fitted' }) definitionsVersion!: string;
  @Field(() => String, { description: 'The game version whose bests were read' }) gameVersion!: string;
  @Field(() => String, { description: 'running, succeeded or failed' }) status!: string;
  @Field(() => String, {
    nullable: true,
    description: 'Phase while running: read, prepare, fit, anchor, evaluate, store',
  })
  phase!: string | null;
  @Field(() => Float, { description: 'Progress, 0 to 1' }) progress!: number;
  @Field(() => Date, { description: 'When the run started' }) startedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When the run ended (null while running)' })
  finishedAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'Why a failed run failed (null otherwise)' }) error!:
    string | null;
  @Field(() => Int, { description: "Bests read (the version's, every chart)" }) bestsRead!: number;
  @Field(() => Int, { description: 'Bests the fit used (fitted players on fitted charts)' }) observations!: number;
  @Field(() => Int, { description: 'Players fitted (≥ 10 fitted charts each)' }) players!: number;
  @Field(() => Int, { description: 'Charts given parameters (≥ 30 fitted players each by default)' }) charts!: number;
  @Field(() => Int, { description: 'Alternating least-squares iterations the fit ran' }) iterations!: number;
  @Field(() => Boolean, { description: 'True when the fit stopped because it converged (not at the iteration limit)' })
  converged!: boolean;
  @Field(() => Float, {
    nullable: true,
    description: "Skill level of BPI 0 (median over charts of the kaiden average's level)",
  })
  z0!: number | null;
  @Field(() => Float, { nullable: true, description: 'Typical skill gap from BPI 0 to the world record (BPI 100)' })
  gap!: number | null;
  @Field(() => Float, { nullable: true, description: 'In-sample RMSE of t = −ln(max EX − EX)' }) rmseT!: number | null;
  @Field(() => Float, { nullable: true, description: 'In-sample share of the within-chart variance of t explained' })
  r2WithinChart!: number | null;
  @Field(() => Int, { nullable: true, description: 'Held-out bests predicted (null: the evaluation was not run)' })
  heldOutObservations!: number | null;
  @Field(() => Float, {
    nullable: true,
    description: "Held-out RMSE of t (V2 prediction from the player's other charts)",
  })
  heldOutRmseT!: number | null;
  @Field(() => Float, { nullable: true, description: 'Held-out mean absolute error of the predicted EX score' })
  heldOutMaeEx!: number | null;
  @Field(() => Float, { nullable: true, description: 'Held-out R² of t within charts' }) heldOutR2!: number | null;
  @Field(() => Int, { nullable: true, description: 'Held-out bests on charts with both models (the V1 comparison)' })
  v1Observations!: number | null;
  @Field(() => Float, { nullable: true, description: "On those bests: V2's RMSE of t" }) v2RmseTVsV1!: number | null;
  @Field(() => Float, {
    nullable: true,
    description: "On those bests: V1's RMSE of t (the EX at the player's median V1 BPI elsewhere)",
  })
  v1RmseT!: number | null;
  @Field(() => Float, { nullable: true, description: "On those bests: V2's mean absolute EX error" }) v2MaeExVsV1!:
    number | null;
  @Field(() => Float, { nullable: true, description: "On those bests: V1's mean absolute EX error" }) v1MaeEx!:
    number | null;
  @Field(() => Float, { nullable: true, description: 'Agreement: RMSE between the V2 and V1 BPIs of those bests' })
  bpiRmse!: number | null;
  @Field(() => Float, { nullable: true, description: 'Agreement: mean (V2 BPI − V1 BPI) of those bests' })
  bpiMeanDiff!: number | null;
  @Field(() => Float, {
    nullable: true,
    description: 'Agreement: Spearman rank correlation of the two BPIs of those bests',
  })
  bpiSpearman!: number | null;
}

@ObjectType('RadarCategoryImportPayload', {
  description: 'Result of importing radar categories ([{title, difficulty, top}])',
})
export class RadarCategoryImportPayload {
  @Field(() => Int, { description: 'entries in the file' }) total!: number;
  @Field(() => Int, { description: 'entries matching an SP chart of the catalogue' }) matched!: number;
  @Field(() => Int, { description: 'charts whose category changed' }) updated!: number;
  @Field(() => Int, { description: 'entries with no matching chart' }) unmatched!: number;
  @Field(() => Int, { description: 'malformed entries skipped' }) invalid!: number;
  @Field(() => [String], { description: 'up to 20 unmatched "title (DIFFICULTY)"' }) unmatchedSamples!: string[];
}
