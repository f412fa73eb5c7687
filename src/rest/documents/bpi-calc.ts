import { fixedDocument } from '../../graphql/documents';

export interface BpiCalcData {
  bpiCalc: {
    song: { title: string; difficulty: string; difficultyLevel: number; notes: number };
    bpi: number | null;
    rank: { estimatedRank: number | null; bpimRank: number | null; bpimTotal: number | null };
    metadata: {
      version: string;
      arenaAverages:
        { arenaClass: string; avgExScore: number; rate: number; count: number; avgBpi: number | null }[] | null;
    };
  };
}

/** GET /api/v1/bpi/calc (src/rest/bpicalc.ts). */
export const RestBpiCalc = fixedDocument<
  BpiCalcData,
  { title: string; difficulty: string; exScore: number; version: string | null; includeRank: boolean }
>(
  'RestBpiCalc',
  /* GraphQL */ `
    query RestBpiCalc(
      $title: String!
      $difficulty: Difficulty!
      $exScore: Int!
      $version: GameVersion
      $includeRank: Boolean
    ) {
      bpiCalc(title: $title, difficulty: $difficulty, exScore: $exScore, version: $version, includeRank: $includeRank) {
        song {
          title
          difficulty
          difficultyLevel
          notes
        }
        bpi
        rank {
          estimatedRank
          bpimRank
          bpimTotal
        }
        metadata {
          version
          arenaAverages {
            arenaClass
            avgExScore
            rate
            count
            avgBpi
          }
        }
      }
    }
  `,
);
