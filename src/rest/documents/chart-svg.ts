import { fixedDocument } from '../../graphql/documents';

export interface ChartSvgData {
  user: {
    isPublic: boolean;
    dashboard: { radarSvg?: string; trendSvg?: string; bpiDistributionSvg?: string } | null;
  } | null;
}

export interface ChartSvgVariables extends Record<string, unknown> {
  userId: string;
  version: string;
  levels: number[] | null;
  difficulties: string[] | null;
  theme: 'LIGHT' | 'DARK';
  groupBy: 'DAY' | 'WEEK' | 'MONTH';
  step: number;
  radar: boolean;
  trend: boolean;
  distribution: boolean;
}

/** GET /api/v1/users/{userId}/charts/{kind}.svg (src/rest/charts.ts): one of the dashboard's pictures. */
export const RestChartSvg = fixedDocument<ChartSvgData, ChartSvgVariables>(
  'RestChartSvg',
  /* GraphQL */ `
    query RestChartSvg(
      $userId: ID!
      $version: GameVersion
      $levels: [Int!]
      $difficulties: [Difficulty!]
      $theme: ChartTheme
      $groupBy: StatsPeriod
      $step: Int
      $radar: Boolean!
      $trend: Boolean!
      $distribution: Boolean!
    ) {
      user(id: $userId) {
        isPublic
        dashboard(version: $version, levels: $levels, difficulties: $difficulties) {
          radarSvg(theme: $theme) @include(if: $radar)
          trendSvg(theme: $theme, groupBy: $groupBy) @include(if: $trend)
          bpiDistributionSvg(theme: $theme, step: $step) @include(if: $distribution)
        }
      }
    }
  `,
);
