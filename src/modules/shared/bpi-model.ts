import { Arg, Ctx, FieldResolver, Float, Resolver, Root } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { BpiModel } from './enums';

/** What a score-shaped type carries for `bpi(model:)`: its chart, EX score and V1 BPI. */
export interface BpiCarrier {
  chartId: number | string;
  exScore: number | null;
  bpi: number | null;
}

/**
 * The resolver of `bpi(model: BpiModel = V1)` on a score-shaped object type (issue #19): V1 is the
 * value the object already carries, V2 the fitted model's for the same EX score
 * (`ctx.services.catalogue.bpiUnder`; null when the chart has no V2 parameters or there is no
 * score). The type keeps its `@Field bpi` (type, description); the area that owns the type lists the
 * returned class among its resolvers. Imports no area.
 */
export function bpiModelResolver(type: Function): Function {
  @Resolver(() => type)
  class BpiModelResolver {
    @FieldResolver(() => Float, { nullable: true })
    bpi(
      @Root() e: BpiCarrier,
      @Arg('model', () => BpiModel, {
        defaultValue: BpiModel.V1,
        description: 'V1 (default): the current definition; V2: the fitted parameters (null when the chart has none)',
      })
      model: BpiModel,
      @Ctx() ctx: Context,
    ): number | null {
      if (model !== BpiModel.V2) return e.bpi;
      if (e.exScore === null || e.exScore === undefined) return null;
      return ctx.services.catalogue.bpiUnder(model, { chartId: Number(e.chartId), exScore: e.exScore, bpi: e.bpi });
    }
  }
  Object.defineProperty(BpiModelResolver, 'name', { value: `${type.name}BpiModelResolver` });
  return BpiModelResolver;
}
