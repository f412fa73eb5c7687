import { fixedDocument } from '../../graphql/documents';

interface McpSongsData {
  songs: {
    totalCount: number;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    edges: {
      node: {
        databaseId: number;
        title: string;
        charts: {
          databaseId: number;
          playStyle: string;
          difficulty: string;
          level: number;
          notes: number | null;
          definition: { wr: number | null; kaidenAvg: number | null } | null;
        }[];
      };
    }[];
  };
}

/** MCP tool search_songs. */
export const McpSearchSongs = fixedDocument<
  McpSongsData,
  { filter: Record<string, unknown>; first?: number; after?: string }
>(
  'McpSearchSongs',
  /* GraphQL */ `
    query McpSearchSongs($filter: SongFilter, $first: Int, $after: String) {
      songs(filter: $filter, first: $first, after: $after) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node {
            databaseId
            title
            charts {
              databaseId
              playStyle
              difficulty
              level
              notes
              definition {
                wr
                kaidenAvg
              }
            }
          }
        }
      }
    }
  `,
);

/** MCP tool search_users. */
export const McpSearchUsers = fixedDocument<
  { searchUsers: { databaseId: string; name: string; isPublic: boolean }[] },
  { prefix?: string; search?: string; first?: number }
>(
  'McpSearchUsers',
  /* GraphQL */ `
    query McpSearchUsers($prefix: String, $search: String, $first: Int) {
      searchUsers(prefix: $prefix, search: $search, first: $first) {
        databaseId
        name
        isPublic
      }
    }
  `,
);
