import { fixedDocument } from '../../graphql/documents';

interface ProfileData {
  user: {
    userId: string;
    userName: string;
    profileText: string | null;
    profileImage: string | null;
    gameId: string | null;
    socialId: string | null;
    isPublic: boolean;
    follows: { followers: number; following: number } | null;
    relationship: { isFollowing: boolean; isFollowedBy: boolean; isMutual: boolean; isSelf: boolean };
    role: { role: string; description: string; grantedAt: string } | null;
    stats: Record<string, unknown>[] | null;
    areaRank: { area: string; areaRank: number; totalInArea: number } | null;
    statsPrivacy: { showArenaClass: boolean; showArenaRank: boolean; showArea: boolean; showGrade: boolean } | null;
    compare?: {
      winLoss: { level: number; win: number; lose: number; draw: number }[] | null;
      radar: Record<string, number>;
    } | null;
  } | null;
}

/**
 * GET /api/v1/users/{userId}/profile (src/rest/profile.ts): the User fields, each under its own
 * rule (a field the caller may not read is null); `compare` only when asked. Aliases give the
 * reference's names (userId, userName, the radar's upper-case categories).
 */
export const RestProfile = fixedDocument<ProfileData, { userId: string; compare: boolean }>(
  'RestProfile',
  /* GraphQL */ `
    query RestProfile($userId: ID!, $compare: Boolean!) {
      user(id: $userId) {
        userId: databaseId
        userName: name
        profileText
        profileImage
        gameId
        socialId
        isPublic
        follows {
          followers
          following
        }
        relationship {
          isFollowing
          isFollowedBy
          isMutual
          isSelf
        }
        role {
          role
          description
          grantedAt
        }
        stats {
          version
          totalBpi
          arenaClass
          arenaRank
          area
          gradeSp
          gradeDp
          updatedAt
          bestArenaClass
          bestArenaClassAt
        }
        areaRank {
          area
          areaRank: rank
          totalInArea
        }
        statsPrivacy {
          showArenaClass
          showArenaRank
          showArea
          showGrade
        }
        compare @include(if: $compare) {
          winLoss {
            level
            win
            lose
            draw
          }
          radar {
            NOTES: notes
            CHORD: chord
            PEAK: peak
            CHARGE: charge
            SCRATCH: scratch
            SOFLAN: soflan
          }
        }
      }
    }
  `,
);
