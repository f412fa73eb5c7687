/** Every resolver of every area; the schema is built from this list. */
import { ChartsResolver, SongsResolver } from './songs/songs.resolver';

export const resolvers = [SongsResolver, ChartsResolver] as const;
