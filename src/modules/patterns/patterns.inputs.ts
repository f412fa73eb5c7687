import { ArgsType, Field, ID } from 'type-graphql';
import { ConnectionArgs } from '../../graphql/connection';
import { FingeringPatternSort } from './patterns.types';

@ArgsType()
export class FingeringPatternsArgs extends ConnectionArgs {
  @Field(() => ID, { description: 'The chart (database id or global id)' }) chartId!: string;
  @Field(() => FingeringPatternSort, {
    nullable: true,
    defaultValue: FingeringPatternSort.ARRANGEMENT_SCORE,
    description: 'Order (default ARRANGEMENT_SCORE, the reference order)',
  })
  sort?: FingeringPatternSort | null;
}
