/** Every resolver of every area; the schema is built from this list. */
import { ChartsResolver, SongsResolver } from './songs/songs.resolver';
import { UsersResolver } from './users/users.resolver';
import { ChartNotesResolver, NotesResolver } from './songs/notes.resolver';
import { PatternsResolver } from './songs/patterns.resolver';
import { ChartAttributesResolver, RankingsResolver } from './songs/rankings.resolver';
import { AuthResolver } from './auth/auth.resolver';
import { BpiCalcResolver } from './bpicalc/bpicalc.resolver';
import { ArenaResolver, ChartArenaResolver } from './songs/arena.resolver';

import { FollowInviteResolver, FollowsResolver, OutgoingFollowRequestResolver, PendingFollowerResolver } from './social/follows.resolver';
import { FollowedUserWithListsResolver, FollowListsResolver } from './social/lists.resolver';
import { NotificationsResolver } from './social/notifications.resolver';
import { TimelineResolver } from './social/timeline.resolver';
import { ScoresMutationResolver, ScoresUserResolver } from './scores/scores.resolver';
import { LogsMutationResolver, LogsUserResolver } from './logs/logs.resolver';
import { StatsResolver } from './stats/stats.resolver';

export const resolvers = [
  SongsResolver,
  ChartsResolver,
  UsersResolver,
  NotesResolver,
  ChartNotesResolver,
  PatternsResolver,
  RankingsResolver,
  ChartAttributesResolver,
  AuthResolver,
  BpiCalcResolver,
  ArenaResolver,
  ChartArenaResolver,
  // social (src/modules/social)
  FollowsResolver,
  PendingFollowerResolver,
  OutgoingFollowRequestResolver,
  FollowInviteResolver,
  FollowListsResolver,
  FollowedUserWithListsResolver,
  NotificationsResolver,
  TimelineResolver,
  ScoresMutationResolver,
  ScoresUserResolver,
  LogsMutationResolver,
  LogsUserResolver,
  // stats (src/modules/stats)
  StatsResolver,
] as const;
