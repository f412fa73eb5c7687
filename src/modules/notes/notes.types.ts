import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../../graphql/connection';
import { NodeInterface } from '../../graphql/global-id';
import { GraphQLNonNegativeInt } from '../../graphql/scalars';

export enum SongNoteSort {
  LATEST = 'LATEST',
  UPVOTES = 'UPVOTES',
  AUTHOR_BPI = 'AUTHOR_BPI',
}
registerEnumType(SongNoteSort, {
  name: 'SongNoteSort',
  description:
    "LATEST: newest first. UPVOTES: most upvoted first, then newest. AUTHOR_BPI: by the author's current total BPI (latest game version), highest first, authors without one last, then newest (the reference's sort=bpi; the order follows the live totals).",
  valuesConfig: {
    LATEST: { description: 'Newest first' },
    UPVOTES: { description: 'Most upvoted first, then newest' },
    AUTHOR_BPI: { description: "The author's current total BPI, highest first (none last), then newest" },
  },
});

/**
 * A strategy note on a chart. Authors are anonymous to readers: neither the author's id nor
 * name is exposed; the only hint is the author's current total BPI (and the one when posting).
 */
@ObjectType('SongNote', {
  implements: NodeInterface,
  description: 'A strategy note on a chart (anonymous: the author is never exposed)',
})
export class SongNoteType {
  @Field(() => Int, { name: 'databaseId', description: 'Database id of the note (the `noteId` of the note mutations)' })
  id!: number;
  @Field(() => Int, { description: 'The chart the note is about' }) chartId!: number;
  @Field(() => String, { description: 'The note text (1–2000 characters (trimmed))' }) body!: string;
  // authorTotalBpi (live) and authorTotalBpiAtPosting: field resolvers (notes.resolver.ts)
  @Field(() => GraphQLNonNegativeInt, { description: 'Upvotes of the note' }) upvoteCount!: number;
  @Field(() => Date, { description: 'When the note was posted' }) createdAt!: Date;
  @Field(() => Date, { description: 'When the note was last edited (createdAt when never)' }) updatedAt!: Date;
  // upvoted, editable, chart: field resolvers (notes.resolver.ts)
}

@ObjectType({ description: 'A page of community notes' })
export class SongNoteConnection extends Connection(SongNoteType, 'SongNote') {}

@ObjectType({ description: 'Result of posting or editing a note' })
export class SongNotePayload {
  @Field(() => SongNoteType, { description: 'The note after the change' }) note!: SongNoteType;
}

@ObjectType({ description: 'Result of deleting a note (its upvotes go with it)' })
export class DeleteSongNotePayload {
  @Field(() => ID, { description: 'Global id of the deleted note (evict it from a client cache)' }) id!: string;
  @Field(() => Boolean, { description: 'False when there was no such note of yours' }) deleted!: boolean;
}

@ObjectType({
  description:
    'Result of an upvote or its cancellation. Both are idempotent: a second upvote (or cancelling an absent one) ' +
    'changes nothing and reports changed = false.',
})
export class SongNoteUpvotePayload {
  @Field(() => SongNoteType, { description: 'The note after the change' }) note!: SongNoteType;
  @Field(() => GraphQLNonNegativeInt, { description: 'The exact upvote count after this operation' })
  upvoteCount!: number;
  @Field(() => Boolean, { description: 'Whether the caller now upvotes the note' }) upvoted!: boolean;
  @Field(() => Boolean, { description: 'False when the operation was a no-op (already upvoted / not upvoted)' })
  changed!: boolean;
}
