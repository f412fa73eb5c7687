import { ArgsType, Field, Int } from 'type-graphql';
import { Difficulty } from '../shared/enums';
import { GameVersionScalar } from '../../graphql/scalars';

@ArgsType()
export class BpiCalcArgs {
  @Field(() => String, { description: 'Exact song title' }) title!: string;
  @Field(() => Difficulty, { description: 'HYPER, ANOTHER or LEGGENDARIA (SP)' }) difficulty!: Difficulty;
  @Field(() => Int, { description: 'EX score, 0 … 2·notes' }) exScore!: number;
  @Field(() => GameVersionScalar, { nullable: true, description: 'Game version (default: the latest)' }) version?:
    string | null;
  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description: 'Add this server’s rank (bpimRank, bpimTotal)',
  })
  includeRank?: boolean | null;
}
