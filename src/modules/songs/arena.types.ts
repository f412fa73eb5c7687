import { Field, Int, ObjectType } from 'type-graphql';
import { ArenaClass } from '../../domain/constants';

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
