/** Every resolver of every area; the schema is built from this list. */
import { ChartsResolver, SongsResolver } from './songs/songs.resolver';
import { UsersResolver } from './users/users.resolver';
import { NotesResolver } from './songs/notes.resolver';
import { PatternsResolver } from './songs/patterns.resolver';
import { ChartAttributesResolver, RankingsResolver } from './songs/rankings.resolver';
import { AuthResolver } from './auth/auth.resolver';

export const resolvers = [
  SongsResolver,
  ChartsResolver,
  UsersResolver,
  NotesResolver,
  PatternsResolver,
  RankingsResolver,
  ChartAttributesResolver,
  AuthResolver,
] as const;
