import { fixedDocument } from '../../graphql/documents';

/**
 * PUT / DELETE /api/v1/me/profile-image (src/rest/profile-image.ts): the gate of the writes — the
 * caller, first party only (rule Query.profileImageOwner). The bytes are checked, re-encoded and
 * stored by the route afterwards: an upload is no GraphQL variable.
 */
export const RestProfileImageOwner = fixedDocument<{ profileImageOwner: { databaseId: string } | null }>(
  'RestProfileImageOwner',
  /* GraphQL */ `
    query RestProfileImageOwner {
      profileImageOwner {
        databaseId
      }
    }
  `,
);

/**
 * GET /api/v1/users/{userId}/profile-image (src/rest/profile-image.ts): the player, visible as the
 * profile is (rule Query.user, VISIBLE; null: 404), and whether they are public (the Cache-Control).
 * The image itself is read from the store.
 */
export const RestProfileImage = fixedDocument<{ user: { isPublic: boolean } | null }, { userId: string }>(
  'RestProfileImage',
  /* GraphQL */ `
    query RestProfileImage($userId: ID!) {
      user(id: $userId) {
        isPublic
      }
    }
  `,
);
