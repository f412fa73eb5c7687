/**
 * GraphQL types of the player dashboard (`User.dashboard`) and of the cross-player stats (tower
 * ranking, radar ranking, site summary), by topic: dashboard-parts.types.ts, dashboard-review.types.ts,
 * stats-ranking.types.ts. The numbers come from the pure calculators in src/domain/stats; these
 * classes only describe them.
 */
import { registerEnumType } from 'type-graphql';
import { StatsPeriod } from '../shared/enums';

export * from './dashboard-parts.types';
export * from './dashboard-review.types';
export * from './stats-ranking.types';

// StatsPeriod is shared (logs' scoreDetails uses it too): ../shared/enums
export { StatsPeriod };

export enum ChartTheme {
  LIGHT = 'light',
  DARK = 'dark',
}
registerEnumType(ChartTheme, {
  name: 'ChartTheme',
  description: 'Colour scheme of an SVG chart picture',
  valuesConfig: {
    LIGHT: { description: 'Dark text on a white background' },
    DARK: { description: 'Light text on a dark background' },
  },
});
