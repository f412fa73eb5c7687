/** Every resolver of every area; the schema is built from this list. */
import { ChartsResolver, SongsResolver } from './songs/songs.resolver';
import { UsersResolver } from './users/users.resolver';
import { AuthResolver } from './auth/auth.resolver';

export const resolvers = [
  SongsResolver,
  ChartsResolver,
  UsersResolver,
  AuthResolver,
] as const;
