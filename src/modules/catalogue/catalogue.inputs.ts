import { Field, InputType, Int } from 'type-graphql';
import { Difficulty, PlayStyle } from '../shared/enums';
import { GameVersionScalar } from '../../graphql/scalars';

@InputType({ description: 'Song filters; a song matches when one of its charts matches all chart filters' })
export class SongFilter {
  @Field(() => String, {
    nullable: true,
    description: 'Case-insensitive substring of the title (at most 256 characters)',
  })
  title?: string | null;
  @Field(() => Int, { nullable: true, description: 'Only songs with a chart of this level (1–12)' }) level?:
    number | null;
  @Field(() => Difficulty, { nullable: true, description: 'Only songs with a chart of this difficulty' })
  difficulty?: Difficulty | null;
  @Field(() => PlayStyle, { nullable: true, description: 'Only songs with a chart of this play style' })
  playStyle?: PlayStyle | null;
  @Field(() => Int, { nullable: true, description: 'Released in this game version number' })
  releasedVersion?: number | null;
  @Field(() => GameVersionScalar, {
    nullable: true,
    description:
      'Exists in this game version (e.g. "31"): released at or before it (unknown release counts as released) and not removed at or before it (a removal of unknown version counts as removed); "INF": no filter. The same rule as the total BPI chart set',
  })
  availableIn?: string | null;
}
