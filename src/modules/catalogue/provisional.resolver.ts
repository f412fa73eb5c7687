import { Arg, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context';
import { parseIntId } from '../../graphql/args';

@ObjectType('ProvisionalChart', {
  description:
    'Value type: a chart learned from a player export and not yet public, for administrators (docs/imports-provisional.md)',
})
export class ProvisionalChartType {
  @Field(() => Int, { description: 'Database id of the chart' }) chartId!: number;
  @Field(() => Int, { description: 'Database id of its song' }) songId!: number;
  @Field(() => String, { description: "The song's title as learned" }) title!: string;
  @Field(() => String, { description: 'SP or DP' }) playStyle!: string;
  @Field(() => String, { description: 'Difficulty' }) difficulty!: string;
  @Field(() => Int, { description: 'Level as the export named it' }) level!: number;
  @Field(() => Int, { description: 'Players with a play on it' }) holders!: number;
  @Field(() => Date, { description: 'When it was learned' }) createdAt!: Date;
}

@ObjectType('ProvisionalChartsPayload', { description: 'The provisional charts adopted or purged' })
export class ProvisionalChartsPayload {
  @Field(() => [Int], { description: 'Database ids of the charts, ascending' }) chartIds!: number[];
  @Field(() => Int, { description: 'How many' }) count!: number;
}

const chartIdsArg = {
  description:
    'Chart ids (database or global ids), 1 to 1,000; every one must be a provisional chart or nothing changes',
};

/** Administration of provisional charts: list, adopt into the public catalogue, purge. */
@Resolver()
export class ProvisionalResolver {
  @Query(() => [ProvisionalChartType], {
    description: 'Admin: charts learned from player exports and not yet public, newest first',
  })
  provisionalCharts(
    @Arg('limit', () => Int, { defaultValue: 100, description: 'At most this many (1 to 1,000)' }) limit: number,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.catalogue.provisionalCharts(limit);
  }

  @Mutation(() => ProvisionalChartsPayload, {
    description: 'Admin: adopt provisional charts into the public catalogue (their scores are kept)',
  })
  adoptProvisionalCharts(@Arg('chartIds', () => [ID], chartIdsArg) chartIds: string[], @Ctx() ctx: Context) {
    return ctx.services.catalogue.adoptProvisional(chartIds.map((id) => parseIntId(id, 'chartIds')));
  }

  @Mutation(() => ProvisionalChartsPayload, {
    description: 'Admin: delete provisional charts with every play and best on them (and their songs when emptied)',
  })
  purgeProvisionalCharts(@Arg('chartIds', () => [ID], chartIdsArg) chartIds: string[], @Ctx() ctx: Context) {
    return ctx.services.catalogue.purgeProvisional(chartIds.map((id) => parseIntId(id, 'chartIds')));
  }
}
