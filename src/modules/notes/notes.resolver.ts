import { Arg, Args, Ctx, FieldResolver, Float, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Chart, SongNote } from '../../generated/prisma/client';
import { parseIntId } from '../../graphql/args';
import type { Context } from '../../graphql/context';
import { toGlobalId } from '../../graphql/global-id';
import { ChartType } from '../shared/chart.type';
import { ChartNotesArgs, RecentSongNotesArgs, SongNotesArgs } from './notes.inputs';
import {
  DeleteSongNotePayload,
  SongNoteConnection,
  SongNotePayload,
  SongNoteSort,
  SongNoteType,
  SongNoteUpvotePayload,
} from './notes.types';

@Resolver(() => SongNoteType)
export class NotesResolver {
  @Query(() => SongNoteConnection, {
    description: "Strategy notes of one chart (newest, most upvoted, or by the author's current total BPI first)",
  })
  songNotes(@Args(() => SongNotesArgs) args: SongNotesArgs, @Ctx() ctx: Context) {
    return ctx.services.notes.listForChart(
      parseIntId(args.chartId, 'chartId'),
      args.sort ?? SongNoteSort.LATEST,
      args.first,
      args.after,
    );
  }

  @Query(() => SongNoteConnection, {
    description:
      "Notes across all charts, newest, most upvoted or by the author's current total BPI first; paged by `page` (0-based) or `after`",
  })
  recentSongNotes(@Args(() => RecentSongNotesArgs) args: RecentSongNotesArgs, @Ctx() ctx: Context) {
    return ctx.services.notes.listRecent(args.sort ?? SongNoteSort.LATEST, args);
  }

  @Mutation(() => SongNotePayload, {
    description: "Posts a note (1–2000 characters after trimming); records the author's current total BPI",
  })
  async postSongNote(
    @Arg('chartId', () => ID, { description: 'The chart (database id or global id)' }) chartId: string,
    @Arg('body', () => String, { description: 'The text, 1–2000 characters (trimmed)' }) body: string,
    @Ctx() ctx: Context,
  ): Promise<SongNotePayload> {
    return { note: await ctx.services.notes.post(parseIntId(chartId, 'chartId'), body) };
  }

  @Mutation(() => SongNotePayload, { description: 'Edits a note (author only)' })
  async editSongNote(
    @Arg('id', () => ID, { description: 'Your note (database id or global id)' }) id: string,
    @Arg('body', () => String, { description: 'The new text, 1–2000 characters (trimmed)' }) body: string,
    @Ctx() ctx: Context,
  ): Promise<SongNotePayload> {
    return { note: await ctx.services.notes.edit(parseIntId(id, 'noteId'), body) };
  }

  @Mutation(() => DeleteSongNotePayload, { description: 'Deletes a note (author only)' })
  async deleteSongNote(
    @Arg('id', () => ID, { description: 'Your note (database id or global id)' }) id: string,
    @Ctx() ctx: Context,
  ): Promise<DeleteSongNotePayload> {
    const noteId = parseIntId(id, 'noteId');
    await ctx.services.notes.delete(noteId);
    return { id: toGlobalId('SongNote', noteId), deleted: true };
  }

  @Mutation(() => SongNoteUpvotePayload, { description: 'Upvotes a note once (idempotent; self-upvotes allowed)' })
  async upvoteSongNote(
    @Arg('id', () => ID, { description: 'The note (database id or global id)' }) id: string,
    @Ctx() ctx: Context,
  ): Promise<SongNoteUpvotePayload> {
    const { note, changed } = await ctx.services.notes.upvote(parseIntId(id, 'noteId'));
    return { note, upvoteCount: note.upvoteCount, upvoted: true, changed };
  }

  @Mutation(() => SongNoteUpvotePayload, { description: "Cancels the caller's upvote (idempotent)" })
  async cancelSongNoteUpvote(
    @Arg('id', () => ID, { description: 'The note (database id or global id)' }) id: string,
    @Ctx() ctx: Context,
  ): Promise<SongNoteUpvotePayload> {
    const { note, changed } = await ctx.services.notes.cancelUpvote(parseIntId(id, 'noteId'));
    return { note, upvoteCount: note.upvoteCount, upvoted: false, changed };
  }

  @FieldResolver(() => Boolean, { description: 'Has the caller upvoted this note? (false when signed out)' })
  upvoted(@Root() note: SongNote, @Ctx() ctx: Context): Promise<boolean> | boolean {
    return ctx.services.notes.upvoted(note);
  }

  @FieldResolver(() => Float, {
    nullable: true,
    description:
      "The author's current total BPI (latest game version), read live as the reference does; null when they have none (batched)",
  })
  authorTotalBpi(@Root() note: SongNote, @Ctx() ctx: Context): Promise<number | null> {
    return ctx.services.notes.authorTotalBpi(note);
  }

  @FieldResolver(() => Float, {
    nullable: true,
    description: "The author's total BPI (latest game version) when the note was posted; null when they had none",
  })
  authorTotalBpiAtPosting(@Root() note: SongNote): number | null {
    return note.authorTotalBpi;
  }

  @FieldResolver(() => Boolean, { description: 'Is the caller the author (may edit and delete)?' })
  editable(@Root() note: SongNote, @Ctx() ctx: Context): boolean {
    return ctx.services.notes.editable(note);
  }

  @FieldResolver(() => ChartType, { description: 'The chart the note is about' })
  chart(@Root() note: SongNote, @Ctx() ctx: Context) {
    return ctx.services.catalogue.chart(note.chartId);
  }
}

@Resolver(() => ChartType)
export class ChartNotesResolver {
  @FieldResolver(() => SongNoteConnection, {
    description:
      'Strategy notes of this chart (as the songNotes query); batched across charts asking for the same page',
  })
  songNotes(@Root() chart: Chart, @Args(() => ChartNotesArgs) args: ChartNotesArgs, @Ctx() ctx: Context) {
    return ctx.services.notes.chartNotes(chart.id, args.sort ?? SongNoteSort.LATEST, args.first, args.after);
  }
}
