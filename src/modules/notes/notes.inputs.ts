import { ArgsType, Field, ID, Int } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/connection';
import { SongNoteSort } from './notes.types';

@ArgsType()
export class SongNotesArgs extends ConnectionArgs {
  @Field(() => ID, { description: 'The chart (database id or global id)' }) chartId!: string;
  @Field(() => SongNoteSort, {
    nullable: true,
    defaultValue: SongNoteSort.LATEST,
    description: 'Order of the notes (default LATEST)',
  })
  sort?: SongNoteSort | null;
}

@ArgsType()
export class RecentSongNotesArgs extends ConnectionArgs {
  @Field(() => SongNoteSort, {
    nullable: true,
    defaultValue: SongNoteSort.LATEST,
    description: 'Order of the notes (default LATEST)',
  })
  sort?: SongNoteSort | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Page number, 0-based (page N starts at N × page size); an alternative to `after`',
  })
  page?: number | null;
}

@ArgsType()
export class ChartNotesArgs extends ConnectionArgs {
  @Field(() => SongNoteSort, {
    nullable: true,
    defaultValue: SongNoteSort.LATEST,
    description: 'Order of the notes (default LATEST)',
  })
  sort?: SongNoteSort | null;
}
