import { ArgsType, Field, ID } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/connection';
import { FingeringPatternSort } from './patterns.types';

@ArgsType()
export class FingeringPatternsArgs extends ConnectionArgs {
  @Field(() => ID) chartId!: string;
  @Field(() => FingeringPatternSort, { nullable: true, defaultValue: FingeringPatternSort.SCORE }) sort?: FingeringPatternSort | null;
}
