import { fixedDocument } from '../../graphql/documents';

export interface RecommendedItemData {
  songId: number;
  title: string;
  notes: number | null;
  bpm: string;
  difficulty: string;
  difficultyLevel: number;
  releasedVersion: number | null;
  logId: number;
  exScore: number;
  bpi: number | null;
  clearState: string | null;
  missCount: number | null;
  scoreAt: string;
  wrScore: number | null;
  kaidenAvg: number | null;
  coef: number | null;
}
interface RecommendedListData {
  data: RecommendedItemData[];
  total: number;
}
export interface RecommendedData {
  user: { recommended: { weapons: RecommendedListData; potential: RecommendedListData } | null } | null;
}

/**
 * GET /api/v1/users/{userId}/stats/recommended (src/rest/recommended.ts). Aliases give the
 * reference's names: its `songId` is our chart id (a reference "song" is one chart).
 */
export const RestRecommended = fixedDocument<
  RecommendedData,
  {
    userId: string;
    version: string | null;
    level: number[];
    difficulty: string[];
    limit: number | null;
    offset: number | null;
  }
>(
  'RestRecommended',
  /* GraphQL */ `
    query RestRecommended(
      $userId: ID!
      $version: GameVersion
      $level: [Int!]
      $difficulty: [Difficulty!]
      $limit: Int
      $offset: Int
    ) {
      user(id: $userId) {
        recommended(version: $version, level: $level, difficulty: $difficulty, limit: $limit, offset: $offset) {
          weapons {
            ...RecommendedPage
          }
          potential {
            ...RecommendedPage
          }
        }
      }
    }
    fragment RecommendedPage on RecommendedList {
      data {
        songId: chartId
        title
        notes
        bpm
        difficulty
        difficultyLevel: level
        releasedVersion
        logId
        exScore
        bpi
        clearState
        missCount
        scoreAt
        wrScore
        kaidenAvg
        coef
      }
      total
    }
  `,
);
