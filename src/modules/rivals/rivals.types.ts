import { Field, Int, ObjectType } from 'type-graphql';
import { RadarType } from '../stats/stats.types';

@ObjectType('WinLoss', { description: 'Viewer against the user on the SP charts of one level both have played (win: viewer\'s EX is higher)' })
export class WinLossType {
  @Field(() => Int) level!: number;
  @Field(() => Int) win!: number;
  @Field(() => Int) lose!: number;
  @Field(() => Int) draw!: number;
}

@ObjectType('ProfileCompare')
export class ProfileCompareType {
  @Field(() => String) version!: string;
  @Field(() => [WinLossType], { nullable: true, description: 'null for anonymous viewers' }) winLoss!: WinLossType[] | null;
  @Field(() => RadarType, { description: 'The user\'s radar' }) radar!: RadarType;
}
