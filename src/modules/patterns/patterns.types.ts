import { VoteType as PatternVote } from '../../domain/constants';
import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Connection } from '../../graphql/connection';

export enum FingeringPatternSort {
  ARRANGEMENT_SCORE = 'ARRANGEMENT_SCORE',
  SCORE = 'SCORE',
  UPVOTES = 'UPVOTES',
}
registerEnumType(FingeringPatternSort, {
  name: 'FingeringPatternSort',
  description:
    'ARRANGEMENT_SCORE (default): highest imported arrangement score first, patterns without one last. SCORE: highest score (upvotes − downvotes) first. UPVOTES: most upvotes first. Ties: vote score, then pattern ascending.',
  valuesConfig: {
    ARRANGEMENT_SCORE: {
      description: 'Highest imported arrangement score first (the reference order); patterns without one last',
    },
    SCORE: { description: 'Highest score (upvotes − downvotes) first' },
    UPVOTES: { description: 'Most upvotes first' },
  },
});

// The stored vote types (prisma/schema.prisma VoteType), exposed as PatternVote.
registerEnumType(PatternVote, {
  name: 'PatternVote',
  valuesConfig: {
    UPVOTE: { description: 'The pattern works' },
    DOWNVOTE: { description: 'The pattern does not work' },
  },
  description: 'A vote on a fingering pattern',
});
export { PatternVote };

@ObjectType('FingeringPattern', {
  description:
    'Value type: a lane arrangement (7 digits, a permutation of 1–7 seen from 1P) for a chart, with its votes (0 when nobody voted) and imported arrangement score; identified by chartId + pattern',
})
export class FingeringPatternType {
  @Field(() => Int, { description: 'Database id of the chart' }) chartId!: number;
  @Field(() => String, { description: '1234567 = normal, 7654321 = mirror' }) pattern!: string;
  @Field(() => Float, { description: 'upvotes − downvotes' }) score!: number;
  @Field(() => Int, { description: 'Upvotes' }) upvotes!: number;
  @Field(() => Int, { description: 'Downvotes' }) downvotes!: number;
  // myVote: field resolver
}

@ObjectType({ description: 'A page of fingering patterns of a chart' })
export class FingeringPatternConnection extends Connection(FingeringPatternType, 'FingeringPattern') {}

@ObjectType({ description: 'Result of voting for a pattern or cancelling a vote' })
export class FingeringPatternVotePayload {
  @Field(() => FingeringPatternType, {
    nullable: true,
    description: 'The pattern with its exact counts (null: no such pattern)',
  })
  pattern!: FingeringPatternType | null;
  @Field(() => PatternVote, { nullable: true, description: "The caller's vote now" }) myVote!: PatternVote | null;
}

@ObjectType({ description: "Value type: where one pattern stands among the chart's patterns" })
export class FingeringPatternSearchResult {
  @Field(() => FingeringPatternType, { description: 'The pattern with its votes' }) pattern!: FingeringPatternType;
  @Field(() => Float, { description: 'upvotes − downvotes' }) score!: number;
  @Field(() => Int, { description: '1 + patterns of this chart with a strictly higher score (ties share a rank)' })
  rank!: number;
  @Field(() => Int, { description: 'Patterns of this chart (imported arrangements and voted patterns)' })
  total!: number;
  @Field(() => Float, { nullable: true, description: 'The imported arrangement score (null: none imported)' })
  arrangementScore!: number | null;
  @Field(() => Int, {
    nullable: true,
    description:
      '1 + arrangements of this chart with a strictly higher arrangement score, ties share (the reference rank; null: none imported)',
  })
  arrangementRank!: number | null;
  @Field(() => Int, { description: 'Arrangements of this chart with an imported score' }) arrangementTotal!: number;
}
