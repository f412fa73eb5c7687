import { defineArea } from '../area';
import { noteNodes } from './notes.nodes';
import { createNoteLoaders, type NoteLoaders } from './notes.loaders';
import { ChartNotesResolver, NotesResolver } from './notes.resolver';
import { NotesService } from './notes.service';

/** Song notes: anonymous strategy memos on charts, with exact upvote counts. Depends on the catalogue. */
export const notesArea = defineArea({
  name: 'notes',
  resolvers: [NotesResolver, ChartNotesResolver],
  loaders: createNoteLoaders,
  nodes: noteNodes,
  services: (s) => new NotesService(s),
});

declare module '../../graphql/context' {
  interface Services {
    notes: NotesService;
  }
  interface Loaders {
    notes: NoteLoaders;
  }
}
