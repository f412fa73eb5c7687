/**
 * Charts learned from a score export — PROVISIONAL (docs/imports-provisional.md): held by the
 * players whose scores are on them, never in the public catalogue until a definitions import lists
 * them or an administrator adopts them. An official CSV (and the INFINITAS tools' exports) names
 * every played chart's title, play style, difficulty and level — BEGINNER/NORMAL and levels 1–10
 * included — while the BPI definitions list level 11–12 charts only. A played chart the catalogue
 * does not hold is created from the export (no BPI definition, note count unknown unless the
 * export names it) in the import's own transaction, so its scores are stored and listed
 * (User.allDifficultyScores) as the reference's all-difficulty table does. A later definitions
 * import that lists the chart makes it ordinary (same title key + play style + difficulty).
 */
import type { CatalogueChart } from '../catalogue/catalogue';
import type { DbLike } from './totals.service';
import { inChunks } from '../../db/yield';

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface LearnedSong {
  genre: string | null;
  artist: string | null;
}

/**
 * Creates the songs and charts of `charts` (placeholders with negative ids) that do not exist
 * yet — concurrent imports learning the same chart meet on the unique keys (ON CONFLICT DO
 * NOTHING, then read back) — and gives each placeholder its real song and chart id, in place.
 * Returns the ids of the charts this call created. Four steps, each in chunks sized by their time.
 */
export async function learnCharts(
  tx: DbLike,
  charts: readonly CatalogueChart[],
  songs: ReadonlyMap<string, LearnedSong>,
): Promise<number[]> {
  if (!charts.length) return [];
  // Sorted (titles, then chart keys): concurrent imports learning overlapping charts take the
  // unique-index entries in one order, so they wait for each other instead of deadlocking.
  const titles = [...new Set(charts.map((c) => c.title))].sort();
  // Each step in chunks sized by their time, in the sorted order (PGlite runs each statement on
  // the main thread: 1,000 charts in one statement held the process up to 1 s on a busy machine).
  await inChunks(titles, (chunk) =>
    tx.$executeRawUnsafe(
      `INSERT INTO "Song" ("title", "genre", "artist", "provisional", "updatedAt")
       SELECT x."title", x."genre", x."artist", true, now() FROM jsonb_to_recordset($1::jsonb) AS x("title" text, "genre" text, "artist" text)
       ORDER BY x."title" COLLATE "C"
       ON CONFLICT ("title") DO NOTHING`,
      JSON.stringify(
        chunk.map((title) => ({
          title,
          genre: songs.get(title)?.genre ?? null,
          artist: songs.get(title)?.artist ?? null,
        })),
      ),
    ),
  );
  const songRows = (
    await inChunks(titles, (chunk) =>
      tx.$queryRawUnsafe<{ id: number; title: string }[]>(
        `SELECT "id", "title" FROM "Song" WHERE "title" = ANY($1::text[])`,
        chunk,
      ),
    )
  ).flat();
  const songId = new Map(songRows.map((r) => [r.title, Number(r.id)]));
  const rows = charts
    .map((c) => ({
      songId: songId.get(c.title)!,
      playStyle: c.playStyle,
      difficulty: c.difficulty,
      level: c.level,
      notes: c.notes > 0 ? c.notes : null,
    }))
    .sort((a, b) => a.songId - b.songId || cmp(a.playStyle, b.playStyle) || cmp(a.difficulty, b.difficulty));
  const created = (
    await inChunks(rows, (chunk) =>
      tx.$queryRawUnsafe<{ id: number }[]>(
        `INSERT INTO "Chart" ("songId", "playStyle", "difficulty", "level", "notes", "provisional", "updatedAt")
         SELECT x."songId", x."playStyle"::"PlayStyle", x."difficulty"::"Difficulty", x."level", x."notes", true, now()
           FROM jsonb_to_recordset($1::jsonb) AS x("songId" int, "playStyle" text, "difficulty" text, "level" int, "notes" int)
         ORDER BY x."songId", x."playStyle", x."difficulty"
         ON CONFLICT ("songId", "playStyle", "difficulty") DO NOTHING
         RETURNING "id"`,
        JSON.stringify(chunk),
      ),
    )
  ).flat();
  const found = (
    await inChunks([...new Set(rows.map((r) => r.songId))], (chunk) =>
      tx.$queryRawUnsafe<{ id: number; songId: number; playStyle: string; difficulty: string }[]>(
        `SELECT c."id", c."songId", c."playStyle"::text AS "playStyle", c."difficulty"::text AS "difficulty"
           FROM "Chart" c WHERE c."songId" = ANY($1::int[])`,
        chunk,
      ),
    )
  ).flat();
  const key = (songId: number, style: string, d: string) => `${songId}\u0000${style}\u0000${d}`;
  const byKey = new Map(found.map((r) => [key(Number(r.songId), r.playStyle, r.difficulty), Number(r.id)]));
  for (const c of charts) {
    c.songId = songId.get(c.title)!;
    c.id = byKey.get(key(c.songId, c.playStyle, c.difficulty))!;
  }
  return created.map((r) => Number(r.id));
}
