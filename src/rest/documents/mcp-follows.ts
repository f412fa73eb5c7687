import { fixedDocument } from '../../graphql/documents';

interface FollowPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { followedAt: string; node: { databaseId: string; name: string; isPublic: boolean; isMasked: boolean } }[];
}
interface McpFollowsData {
  me: { following?: FollowPage | null; followers?: FollowPage | null } | null;
}

/** MCP tool my_follows: one direction, chosen by $following. */
export const McpMyFollows = fixedDocument<McpFollowsData, { following: boolean; first?: number; after?: string }>(
  'McpMyFollows',
  /* GraphQL */ `
    query McpMyFollows($following: Boolean!, $first: Int, $after: String) {
      me {
        following(first: $first, after: $after) @include(if: $following) {
          ...FollowPage
        }
        followers(first: $first, after: $after) @skip(if: $following) {
          ...FollowPage
        }
      }
    }
    fragment FollowPage on FollowConnection {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        followedAt
        node {
          databaseId
          name
          isPublic
          isMasked
        }
      }
    }
  `,
);
