import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { BpiCalcArgs } from './bpicalc.inputs';
import { BpiCalcResult } from './bpicalc.types';

@Resolver()
export class BpiCalcResolver {
  @Query(() => BpiCalcResult, {
    description: 'BPI of an EX score on one SP chart (the calculator); REST: GET /api/v1/bpi/calc',
  })
  bpiCalc(@Args(() => BpiCalcArgs) args: BpiCalcArgs, @Ctx() ctx: Context) {
    return ctx.services.bpicalc.calc(args);
  }
}
