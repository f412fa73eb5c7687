/** GraphQL types of the cross-player stats: tower registration, tower and radar rankings, the site summary. */
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { RadarCategory, StatsPeriod } from '../shared/enums';
import { UserType } from '../shared/user.type';
import { RadarType } from './stats.types';
import { GameVersionScalar } from '../../graphql/scalars';
import { TowerHistoryType } from './dashboard-parts.types';

// ───────────── tower register, rankings, site ─────────────

@ObjectType('RegisterTowerPayload', { description: 'Value type: result of registering key-counter days' })
export class RegisterTowerPayloadType {
  @Field(() => Int, { description: 'Days written (inserted or replaced)' }) upsertedCount!: number;
  @Field(() => TowerHistoryType, { description: "The player's tower days of the version after the write" })
  history!: TowerHistoryType;
}

@ObjectType('StatsRankingEntry', {
  description:
    'Value type: one player on a stats ranking (tower, radar category). A player the caller may not see is masked: user null, name "非公開ユーザー"; rank and value stay.',
})
export class StatsRankingEntryType {
  @Field(() => Int, { description: 'Competition rank (ties share)' }) rank!: number;
  @Field(() => Float, { description: "The ranked value (keys + scratches, or the category's total BPI)" })
  value!: number;
  @Field(() => ID, { nullable: true, description: 'User id (null: masked)' }) userId!: string | null;
  @Field(() => UserType, { nullable: true, description: 'The player (null: masked)' }) user!: UserType | null;
  @Field(() => String, { description: 'Name, or "非公開ユーザー" when masked' }) name!: string;
  @Field(() => Boolean, { description: 'Identity hidden from the caller' }) isMasked!: boolean;
  @Field(() => Boolean, { description: "This row is the caller's" }) isSelf!: boolean;
  @Field(() => Int, { nullable: true, description: 'Tower ranking: keys over the period' }) keyCount!: number | null;
  @Field(() => Int, { nullable: true, description: 'Tower ranking: scratches over the period' }) scratchCount!:
    number | null;
  @Field(() => RadarType, { nullable: true, description: "Radar ranking: the player's six values (null when masked)" })
  radar!: RadarType | null;
}

@ObjectType({ description: 'A page of the players ranked by tower (key presses)' })
export class TowerRankingConnection extends Connection(StatsRankingEntryType, 'TowerRankingEntry') {
  @Field(() => GameVersionScalar, { description: 'Game version' }) version!: string;
  @Field(() => StatsPeriod, { description: 'Period unit' }) period!: StatsPeriod;
  @Field(() => String, { description: 'First JST date of the period' }) startDate!: string;
  @Field(() => String, { description: 'Last JST date of the period' }) endDate!: string;
  @Field(() => Int, { nullable: true, description: "The caller's rank (null: signed out or absent)" }) selfRank!:
    number | null;
}

@ObjectType({ description: 'A page of the players ranked in one radar category' })
export class RadarRankingConnection extends Connection(StatsRankingEntryType, 'RadarRankingEntry') {
  @Field(() => GameVersionScalar, { description: 'Game version' }) version!: string;
  @Field(() => RadarCategory, { description: 'The ranked category' }) category!: RadarCategory;
  @Field(() => Int, { nullable: true, description: "The caller's rank (null: signed out or absent)" }) selfRank!:
    number | null;
  @Field(() => RadarType, { nullable: true, description: "The caller's own radar in the version (null: signed out)" })
  viewerRadar!: RadarType | null;
}

@ObjectType('SiteCounts', { description: "Value type: totals and today's (JST) counts of the site" })
export class SiteCountsType {
  @Field(() => Int, { description: 'Players' }) totalUsers!: number;
  @Field(() => Int, { description: 'Players registered today (JST)' }) newUsersToday!: number;
  @Field(() => Int, { description: 'Import batches' }) totalBatches!: number;
  @Field(() => Int, { description: 'Import batches today (JST)' }) newBatchesToday!: number;
  @Field(() => Int, { description: 'Stored plays' }) totalPlays!: number;
  @Field(() => Int, { description: 'Stored plays today (JST)' }) newPlaysToday!: number;
}

@ObjectType('SiteDay', { description: 'Value type: registrations, batches and plays of one JST day' })
export class SiteDayType {
  @Field(() => String, { description: 'JST date' }) date!: string;
  @Field(() => Int, { description: 'Players registered' }) users!: number;
  @Field(() => Int, { description: 'Import batches' }) batches!: number;
  @Field(() => Int, { description: 'Stored plays' }) plays!: number;
}

@ObjectType('SiteBucket', { description: 'Value type: batches and plays in one JST hour or ISO weekday' })
export class SiteBucketType {
  @Field(() => Int, { description: 'JST hour 0–23, or ISO weekday 1 = Monday … 7 = Sunday' }) key!: number;
  @Field(() => Int, { description: 'Import batches' }) batches!: number;
  @Field(() => Int, { description: 'Stored plays' }) plays!: number;
}

@ObjectType('SiteWindow', { description: 'Value type: hourly and weekday distributions over one window of days' })
export class SiteWindowType {
  @Field(() => String, { description: 'all, d90, d30 or d7 (the last 90 / 30 / 7 JST days, today included)' })
  window!: string;
  @Field(() => [SiteBucketType], { description: '24 JST hours' }) hourly!: SiteBucketType[];
  @Field(() => [SiteBucketType], { description: '7 ISO weekdays' }) weekday!: SiteBucketType[];
}

@ObjectType('NamedCount', { description: 'Value type: a name (arena class, area, version) and a count' })
export class NamedCountType {
  @Field(() => String, { description: 'The name' }) name!: string;
  @Field(() => Int, { description: 'The count' }) count!: number;
}

@ObjectType('SiteSummary', { description: 'Value type: the site-wide summary; "today" is today in JST' })
export class SiteSummaryType {
  @Field(() => Date, { description: 'When computed' }) generatedAt!: Date;
  @Field(() => String, { description: "Today's JST date" }) today!: string;
  @Field(() => SiteCountsType, { description: "Totals and today's counts" }) summary!: SiteCountsType;
  @Field(() => [SiteDayType], { description: 'The 90 JST days ending today, oldest first' })
  dailyRegistrations!: SiteDayType[];
  @Field(() => [SiteWindowType], { description: 'Windows all, d90, d30, d7' }) windows!: SiteWindowType[];
  @Field(() => [NamedCountType], { description: 'Players per arena class A1 … B5 (latest version)' })
  arenaClassDistribution!: NamedCountType[];
  @Field(() => [NamedCountType], { description: 'Players per area, count desc (only players showing their area)' })
  areaDistribution!: NamedCountType[];
  @Field(() => [NamedCountType], { description: 'Stored plays per game version' })
  versionDistribution!: NamedCountType[];
}
