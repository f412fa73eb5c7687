import { fixedDocument } from '../../graphql/documents';

/** The note's fields the route answers as they are (src/rest/notes.ts RecentSongNoteJson). */
export interface RecentNoteFields {
  body: string;
  authorTotalBpi: number | null;
  upvoteCount: number;
  upvoted: boolean;
  editable: boolean;
  createdAt: string;
  updatedAt: string;
}

interface RecentNotesData {
  recentSongNotes: {
    edges: {
      node: RecentNoteFields & {
        databaseId: number;
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
