import { fixedDocument } from '../../graphql/documents';

interface ProfileCardData {
  user: {
    name: string;
    isPublic: boolean;
    stats: { version: string; totalBpi: number | null; arenaClass: string | null }[] | null;
    dashboard: { radarSvg: string } | null;
  } | null;
}

interface ProfileCardVariables extends Record<string, unknown> {
  userId: string;
  version: string;
  theme: 'LIGHT' | 'DARK';
}

/**
 * GET /api/v1/users/{userId}/cards/profile.png (src/rest/cards.ts): the name, the version's total BPI
 * and arena class (masked by the owner's switches for others) and the radar (rule Query.user, VISIBLE).
 */
export const RestProfileCard = fixedDocument<ProfileCardData, ProfileCardVariables>(
  'RestProfileCard',
  /* GraphQL */ `
    query RestProfileCard($userId: ID!, $version: GameVersion, $theme: ChartTheme) {
      user(id: $userId) {
        name
        isPublic
        stats {
          version
          totalBpi
          arenaClass
        }
        dashboard(version: $version) {
          radarSvg(theme: $theme)
        }
      }
    }
  `,
);

/** GET /api/v1/batches/{batchId}/card.png (src/rest/cards.ts): the batch's card (rule Query.batchCard, VISIBLE). */
export const RestBatchCard = fixedDocument<
  { batchCard: { isPublic: boolean; svg: string } },
  { batchId: string; theme: 'LIGHT' | 'DARK' }
>(
  'RestBatchCard',
  /* GraphQL */ `
    query RestBatchCard($batchId: ID!, $theme: ChartTheme) {
      batchCard(batchId: $batchId, theme: $theme) {
        isPublic
        svg
      }
    }
  `,
);
