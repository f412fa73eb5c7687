import type { Db } from '../db/client';
import { createSongLoaders } from '../modules/songs/songs.loaders';
import { createUserLoaders } from '../modules/users/users.loaders';
import { createNoteLoaders } from '../modules/songs/notes.loaders';
import { createPatternLoaders } from '../modules/songs/patterns.loaders';
import { createRankingLoaders } from '../modules/songs/rankings.loaders';
import { createScoreLoaders } from '../modules/scores/scores.loaders';

/** The one loader factory: every area contributes its loaders; a fresh set per request. */
export function createLoaders(db: Db) {
  return {
    ...createScoreLoaders(db),
    ...createUserLoaders(db),
    ...createSongLoaders(db),
    ...createNoteLoaders(db),
    ...createPatternLoaders(db),
    ...createRankingLoaders(db),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
