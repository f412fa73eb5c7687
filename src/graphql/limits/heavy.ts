/**
 * The prices of heavy fields: CPU work priced by the field's inputs, whatever sub-fields are
 * selected (docs/limits-and-pool.md). A work unit is about a millisecond of CPU on the reference
 * machine (one bpiPlan with maxSteps 400 over ≈ 2,000 charts: ≈ 0.8 s = 800 units). Every heavy
 * field also counts one expensive read; plans are capped per request (GRAPHQL_MAX_PLANS).
 */
import { Kind, type ArgumentNode, type ValueNode } from 'graphql';

/** Charts a plan searches (the SP/DP ☆11–12 set of the definitions: about 2,000). */
export const PLAN_CHARTS = 2000;
/** maxSteps when absent (the optimizer's default) and its largest value. */
const PLAN_STEPS_DEFAULT = 30;
const PLAN_STEPS_MAX = 400;
/** A ticket: rank its charts and join the player's scores (a few ms). */
export const TICKET_UNITS = 5;
const TICKETS_MAX = 50;
/** A review (month or year of plays, totals per day), an SVG picture, a whole-version history. */
export const REVIEW_UNITS = 50;
export const SVG_UNITS = 20;
export const HISTORY_UNITS = 20;

/** Reads the arguments of one field node (literals or variables). */
export interface ArgReader {
  /** A number at `path` (`['input', 'maxSteps']`): undefined when absent or null, NaN when not a usable number. */
  number(path: readonly string[]): number | undefined;
  /** The length of a list argument: undefined when absent, NaN when not a list. */
  length(name: string): number | undefined;
}

/** An ArgReader over `args`; variables used are added to `used` (the cost depends on them). */
export function argReader(
  args: readonly ArgumentNode[] | undefined,
  vars: Record<string, unknown>,
  used: Set<string>,
): ArgReader {
  const valueAt = (path: readonly string[]): unknown => {
    const arg = args?.find((a) => a.name.value === path[0]);
    if (!arg) return undefined;
    let node: ValueNode = arg.value;
    let i = 1;
    while (node.kind !== Kind.VARIABLE) {
      if (i === path.length) {
        if (node.kind === Kind.INT || node.kind === Kind.FLOAT) return Number(node.value);
        if (node.kind === Kind.LIST) return new Array<unknown>(node.values.length);
        return node.kind === Kind.NULL ? undefined : NaN;
      }
      if (node.kind !== Kind.OBJECT) return NaN;
      const f = node.fields.find((x) => x.name.value === path[i]);
      if (!f) return undefined;
      node = f.value;
      i++;
    }
    used.add(node.name.value);
    let value: unknown = vars[node.name.value];
    for (; i < path.length; i++) {
      if (value === undefined || value === null) return undefined;
      if (typeof value !== 'object') return NaN;
      value = (value as Record<string, unknown>)[path[i]];
    }
    return value ?? undefined;
  };
  return {
    number(path) {
      const v = valueAt(path);
      if (v === undefined) return undefined;
      return typeof v === 'number' && Number.isFinite(v) ? v : NaN;
    },
    length(name) {
      const v = valueAt([name]);
      if (v === undefined) return undefined;
      return Array.isArray(v) ? v.length : NaN;
    },
  };
}

/** What one heavy field costs: work units (CPU budget, added to the cost) and whether it is a plan. */
export interface HeavyPrice {
  units: number;
  plans: number;
}

/** Units of a plan: maxSteps × charts / 1,000 (maxSteps 30 → 60, 400 → 800); a bad maxSteps counts as the largest. */
export function planUnits(maxSteps: number | undefined): number {
  const steps =
    maxSteps === undefined
      ? PLAN_STEPS_DEFAULT
      : Number.isNaN(maxSteps)
        ? PLAN_STEPS_MAX
        : Math.min(Math.max(Math.trunc(maxSteps), 1), PLAN_STEPS_MAX);
  return Math.ceil((steps * PLAN_CHARTS) / 1000);
}

const plan = (a: ArgReader): HeavyPrice => ({ units: planUnits(a.number(['input', 'maxSteps'])), plans: 1 });
const fixed = (units: number) => (): HeavyPrice => ({ units, plans: 0 });

/** Heavy fields (`Type.field`) and their prices. */
export const HEAVY_FIELDS: Record<string, (a: ArgReader) => HeavyPrice> = {
  'User.bpiPlan': plan,
  'Mutation.saveOptimizeMemo': plan,
  'User.ticketRecommendation': fixed(TICKET_UNITS),
  'User.ticketRecommendations': (a) => {
    const n = a.length('tickets');
    return {
      units: TICKET_UNITS * (n === undefined || Number.isNaN(n) ? TICKETS_MAX : Math.min(n, TICKETS_MAX)),
      plans: 0,
    };
  },
  'Dashboard.review': fixed(REVIEW_UNITS),
  'Dashboard.radarSvg': fixed(SVG_UNITS),
  'Dashboard.trendSvg': fixed(SVG_UNITS),
  'Dashboard.bpiDistributionSvg': fixed(SVG_UNITS),
  'User.totalBpiHistory': fixed(HISTORY_UNITS),
};
