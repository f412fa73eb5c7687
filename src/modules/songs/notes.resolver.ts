import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Chart, SongNote } from '../../generated/prisma/client';
import { pageSize } from '../../graphql/connection';
import type { Context } from '../../graphql/context';
import { unauthenticated } from '../../errors';
import { ChartType } from './songs.types';
import { ChartNotesArgs, RecentSongNotesArgs, SongNotesArgs } from './notes.inputs';
import { notesPageKey } from './notes.loaders';
import { NotesService, parseIntId, parseNoteCursor } from './notes.service';
import { DeleteSongNotePayload, SongNoteConnection, SongNotePayload, SongNoteSort, SongNoteType, SongNoteUpvotePayload } from './notes.types';

function viewerId(ctx: Context): string {
  if (!ctx.viewer) throw unauthenticated();
  return ctx.viewer.id;
}

@Resolver(() => SongNoteType)
export class NotesResolver {
  @Query(() => SongNoteConnection, { description: 'Strategy notes of one chart (newest or most upvoted first)' })
  songNotes(@Args(() => SongNotesArgs) args: SongNotesArgs, @Ctx() ctx: Context) {
    return new NotesService(ctx.db).listForChart(parseIntId(args.chartId, 'chartId'), args.sort ?? SongNoteSort.LATEST, args.first, args.after);
  }

  @Query(() => SongNoteConnection, {
    description: 'Notes across all charts, newest or most upvoted first; paged by `page` (0-based) or `after`',
  })
  recentSongNotes(@Args(() => RecentSongNotesArgs) args: RecentSongNotesArgs, @Ctx() ctx: Context) {
    return new NotesService(ctx.db).listRecent(args.sort ?? SongNoteSort.LATEST, args);
  }

  @Mutation(() => SongNotePayload, {
    description: "Posts a note (1–2000 characters after trimming); records the author's current total BPI",
  })
  async postSongNote(@Arg('chartId', () => ID) chartId: string, @Arg('body', () => String) body: string, @Ctx() ctx: Context): Promise<SongNotePayload> {
    const note = await new NotesService(ctx.db).post(viewerId(ctx), parseIntId(chartId, 'chartId'), body);
    return { note };
  }

  @Mutation(() => SongNotePayload, { description: 'Edits a note (author only)' })
  async editSongNote(@Arg('id', () => ID) id: string, @Arg('body', () => String) body: string, @Ctx() ctx: Context): Promise<SongNotePayload> {
    const note = await new NotesService(ctx.db).edit(viewerId(ctx), parseIntId(id, 'noteId'), body);
    return { note };
  }

  @Mutation(() => DeleteSongNotePayload, { description: 'Deletes a note (author only)' })
  async deleteSongNote(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<DeleteSongNotePayload> {
    const noteId = parseIntId(id, 'noteId');
    await new NotesService(ctx.db).delete(viewerId(ctx), noteId);
    return { id: noteId, deleted: true };
  }

  @Mutation(() => SongNoteUpvotePayload, { description: 'Upvotes a note once (idempotent; self-upvotes allowed)' })
  async upvoteSongNote(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<SongNoteUpvotePayload> {
    const userId = viewerId(ctx);
    const { note, changed } = await new NotesService(ctx.db).upvote(userId, parseIntId(id, 'noteId'));
    ctx.loaders.songNoteUpvoted.clear(`${userId}:${note.id}`).prime(`${userId}:${note.id}`, true);
    return { note, upvoteCount: note.upvoteCount, upvoted: true, changed };
  }

  @Mutation(() => SongNoteUpvotePayload, { description: "Cancels the caller's upvote (idempotent)" })
  async cancelSongNoteUpvote(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<SongNoteUpvotePayload> {
    const userId = viewerId(ctx);
    const { note, changed } = await new NotesService(ctx.db).cancelUpvote(userId, parseIntId(id, 'noteId'));
    ctx.loaders.songNoteUpvoted.clear(`${userId}:${note.id}`).prime(`${userId}:${note.id}`, false);
    return { note, upvoteCount: note.upvoteCount, upvoted: false, changed };
  }

  @FieldResolver(() => Boolean, { description: 'Has the caller upvoted this note? (false when signed out)' })
  upvoted(@Root() note: SongNote, @Ctx() ctx: Context): Promise<boolean> | boolean {
    return ctx.viewer ? ctx.loaders.songNoteUpvoted.load(`${ctx.viewer.id}:${note.id}`) : false;
  }

  @FieldResolver(() => Boolean, { description: 'Is the caller the author (may edit and delete)?' })
  editable(@Root() note: SongNote, @Ctx() ctx: Context): boolean {
    return ctx.viewer?.id === note.authorId;
  }

  @FieldResolver(() => ChartType)
  async chart(@Root() note: SongNote, @Ctx() ctx: Context) {
    return ctx.loaders.songsChartById.load(note.chartId);
  }
}

@Resolver(() => ChartType)
export class ChartNotesResolver {
  @FieldResolver(() => SongNoteConnection, {
    description: 'Strategy notes of this chart (as the songNotes query); batched across charts asking for the same page',
  })
  songNotes(@Root() chart: Chart, @Args(() => ChartNotesArgs) args: ChartNotesArgs, @Ctx() ctx: Context) {
    const sort = args.sort ?? SongNoteSort.LATEST;
    const size = pageSize(args.first);
    if (args.after) parseNoteCursor(sort, args.after);
    return ctx.loaders.songNotesPage.load(notesPageKey(chart.id, sort, size, args.after ?? null));
  }
}
