import { fixedDocument } from '../../graphql/documents';

interface RecentNotesData {
  recentSongNotes: {
    edges: {
      node: {
        databaseId: number;
        body: string;
        authorTotalBpi: number | null;
        upvoteCount: number;
        upvoted: boolean;
        editable: boolean;
        createdAt: string;
        updatedAt: string;
        chartId: number;
        chart: { difficulty: string; level: number; song: { title: string } };
      };
    }[];
  };
}

/** GET /api/v1/songs/notes/recent (src/rest/notes.ts): one page of 20, `page` 0-based. */
export const RestRecentNotes = fixedDocument<RecentNotesData, { sort: string; page: number; first: number }>(
  'RestRecentNotes',
  /* GraphQL */ `
    query RestRecentNotes($sort: SongNoteSort, $page: Int, $first: Int) {
      recentSongNotes(sort: $sort, page: $page, first: $first) {
        edges {
          node {
            databaseId
            body
            authorTotalBpi
            upvoteCount
            upvoted
            editable
            createdAt
            updatedAt
            chartId
            chart {
              difficulty
              level
              song {
                title
              }
            }
          }
        }
      }
    }
  `,
);
