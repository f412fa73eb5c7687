/**
 * The explorer's default tabs (GraphiQL `defaultTabs`): the dashboard query, paging, and a
 * subscription. One place for all of them: when the schema changes, update them here
 * (test/unit/explorer-documents.test.ts validates every one against schema.graphql).
 *
 * GraphiQL shows these only until the browser has tabs of its own in local storage.
 */
export interface ExplorerTab {
  /** The document (one named operation). */
  query: string;
  /** Variables as JSON text, or undefined. */
  variables?: string;
}

/** The dashboard: the signed-in player's page in one request (docs/frontend.md). */
export const DASHBOARD_QUERY = `# The dashboard: the signed-in player's page in one request.
#
# Sign in first: open "Headers" (below) and enter
#   { "Authorization": "Bearer <access token>" }
# (\`npm run cli -- token <userId>\` prints one, or
# POST /api/v1/token with an X-API-Key header).
# Ctrl+Enter runs the query.
query Dashboard($version: GameVersion) {
  serverInfo {
    latestVersion
  }
  me {
    id
    name
    isPublic
    follows {
      followers
      following
    }
    stats {
      version
      totalBpi
      arenaClass
      arenaRank
    }
    scores(version: $version, first: 5) {
      totalCount
      edges {
        node {
          chartId
          title
          difficulty
          level
          exScore
          bpi
          clearLamp
          playedAt
        }
      }
    }
    recommended(version: $version, limit: 5) {
      totalBpi
      potential {
        total
        data {
          chartId
          title
          difficulty
          level
          exScore
          bpi
          bpiDiff
        }
      }
    }
    followers(first: 5) {
      totalCount
      edges {
        followedAt
        node {
          id
          name
          stats {
            version
            totalBpi
          }
        }
      }
    }
  }
}
`;

/** Relay paging: `first` + `after: pageInfo.endCursor` until hasNextPage is false. */
export const PAGING_QUERY = `# Paging (Relay connections): ask for \`first\` items
# (1–100), then pass pageInfo.endCursor as \`after\` (in
# Variables) for the next page, until hasNextPage is false.
# Public: no sign-in needed.
query SongsPage($after: String) {
  songs(first: 10, after: $after) {
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
    edges {
      cursor
      node {
        id
        title
        artist
        charts {
          id
          difficulty
          level
          notes
        }
      }
    }
  }
}
`;

/** A subscription over graphql-ws (the explorer sends the Authorization header as connectionParams). */
export const SUBSCRIPTION_QUERY = `# Live updates over WebSocket (graphql-ws, same URL).
# Needs the Authorization header (Headers, below: sent as
# connectionParams). Run it, then from another client follow
# this player, send a follow request, or import scores that
# overtake them: each notification appears here as it happens.
# The stop button ends the subscription.
subscription Notifications {
  notificationAdded {
    id
    type
    createdAt
    read
    actor {
      id
      name
    }
    chart {
      id
      difficulty
      level
      song {
        title
      }
    }
    actorExScore
    myExScore
  }
}
`;

export const EXPLORER_TABS: readonly ExplorerTab[] = [
  { query: DASHBOARD_QUERY },
  { query: PAGING_QUERY },
  { query: SUBSCRIPTION_QUERY },
];
