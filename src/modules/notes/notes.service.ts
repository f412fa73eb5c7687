import { Prisma, type SongNote } from '../../generated/prisma/client';
import { badInput, forbidden, notFound } from '../../errors';
import { keyset, pageSize } from '../../graphql/args';
import { keyCursor, keysetPage, type Page } from '../../graphql/connection';
import { LATEST_VERSION } from '../../domain/constants';
import { viewerId } from '../../graphql/context';
import type { AreaScope } from '../area';
import { SongNoteSort } from './notes.types';

export const NOTE_BODY_MAX = 2000;
export const RECENT_NOTES_PAGE_SIZE = 20;

/** Trims and checks a note body: 1–2000 characters (UTF-16 units) after trimming. */
export function normaliseNoteBody(body: string): string {
  const trimmed = body.trim();
  if (!trimmed)
    throw badInput('body is required', [{ code: 'too_small', path: ['body'], message: 'body is required' }]);
  if (trimmed.length > NOTE_BODY_MAX) {
    throw badInput(`body too long (max ${NOTE_BODY_MAX})`, [
      { code: 'too_big', path: ['body'], message: `body too long (max ${NOTE_BODY_MAX})` },
    ]);
  }
  return trimmed;
}

/** A note row as the pages read it: with the author's live total BPI when sorted by it. */
type NoteRow = SongNote & { liveBpi?: number | null };

/** The author's live total BPI as a sort key: authors without one last (the reference's -999). */
export const NO_AUTHOR_BPI = -999;

/** Cursor kinds of notes: [upvote count or author BPI key, createdAt, id]; [createdAt, id] for LATEST. */
const KEYED_NOTE_KEY = ['num', 'time', 'int'] as const;
const LATEST_NOTE_KEY = ['time', 'int'] as const;
const noteTag = (sort: SongNoteSort) => `songNotes:${sort}`;

function cursorOf(sort: SongNoteSort, n: NoteRow): string {
  if (sort === SongNoteSort.UPVOTES)
    return keyCursor(noteTag(sort), KEYED_NOTE_KEY, [n.upvoteCount, n.createdAt, n.id]);
  if (sort === SongNoteSort.AUTHOR_BPI)
    return keyCursor(noteTag(sort), KEYED_NOTE_KEY, [n.liveBpi ?? NO_AUTHOR_BPI, n.createdAt, n.id]);
  return keyCursor(noteTag(sort), LATEST_NOTE_KEY, [n.createdAt, n.id]);
}

interface NoteCursor {
  /** upvote count (UPVOTES) or the author's BPI key (AUTHOR_BPI) */
  key: number | null;
  at: Date;
  id: number;
}

/** Decodes a keyset cursor of the given sort (BAD_USER_INPUT naming `after` when it is not one: args.ts keyset). */
export function parseNoteCursor(sort: SongNoteSort, after: string): NoteCursor {
  if (sort === SongNoteSort.UPVOTES || sort === SongNoteSort.AUTHOR_BPI) {
    const [key, at, id] = keyset({ after }, noteTag(sort), KEYED_NOTE_KEY).key!;
    return { key, at, id };
  }
  const [at, id] = keyset({ after }, noteTag(sort), LATEST_NOTE_KEY).key!;
  return { key: null, at, id };
}

/** The author's live total BPI of note n (alias st: PlayerVersionStatus of the latest version). */
const LIVE_BPI = Prisma.sql`COALESCE(st."totalBpi", ${NO_AUTHOR_BPI})`;

/** Rows strictly after the cursor in the sort order (keyset pagination), as SQL over alias n. */
function afterSql(sort: SongNoteSort, c: NoteCursor): Prisma.Sql {
  const tail = Prisma.sql`(n."createdAt" < ${c.at} OR (n."createdAt" = ${c.at} AND n."id" < ${c.id}))`;
  // LATEST: the redundant bound makes the cursor an index condition on createdAt
  // the key as float8: a forged key beyond the integer range compares, never fails the statement
  if (sort === SongNoteSort.UPVOTES)
    return Prisma.sql`AND (n."upvoteCount" < ${c.key}::float8 OR (n."upvoteCount" = ${c.key}::float8 AND ${tail}))`;
  if (sort === SongNoteSort.AUTHOR_BPI)
    return Prisma.sql`AND (${LIVE_BPI} < ${c.key}::float8 OR (${LIVE_BPI} = ${c.key}::float8 AND ${tail}))`;
  return Prisma.sql`AND n."createdAt" <= ${c.at} AND ${tail}`;
}

function orderSql(sort: SongNoteSort): Prisma.Sql {
  if (sort === SongNoteSort.UPVOTES) return Prisma.sql`n."upvoteCount" DESC, n."createdAt" DESC, n."id" DESC`;
  if (sort === SongNoteSort.AUTHOR_BPI) return Prisma.sql`${LIVE_BPI} DESC, n."createdAt" DESC, n."id" DESC`;
  return Prisma.sql`n."createdAt" DESC, n."id" DESC`;
}

/** The join giving each note its author's current total BPI (latest game version). */
const AUTHOR_STATUS = Prisma.sql`LEFT JOIN "PlayerVersionStatus" st ON st."userId" = n."authorId" AND st."version" = ${LATEST_VERSION}`;

/**
 * Holds the note against deletion for the rest of the transaction (FOR KEY SHARE: concurrent
 * upvotes do not wait on each other) and fails with NOT_FOUND when it does not exist.
 */
async function lockNote(tx: Prisma.TransactionClient, noteId: number): Promise<void> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "SongNote" WHERE "id" = ${noteId} FOR KEY SHARE`;
  if (rows.length === 0) throw notFound('Note not found');
}

/**
 * One page of notes for each of several charts in two statements (a window function per chart
 * and one grouped count): the batch behind `Chart.notes` and `songNotes`.
 */
export async function pagesForCharts(
  db: AreaScope['db'],
  chartIds: number[],
  sort: SongNoteSort,
  size: number,
  after: string | null,
): Promise<Map<number, Page<SongNote>>> {
  const cursor = after ? parseNoteCursor(sort, after) : null;
  const ids = [...new Set(chartIds)];
  const [rows, counts] = await Promise.all([
    db.$queryRaw<NoteRow[]>`
      SELECT "id", "chartId", "authorId", "body", "authorTotalBpi", "upvoteCount", "createdAt", "updatedAt", "liveBpi" FROM (
        SELECT n.*, st."totalBpi" AS "liveBpi", ROW_NUMBER() OVER (PARTITION BY n."chartId" ORDER BY ${orderSql(sort)}) AS rn
        FROM "SongNote" n ${AUTHOR_STATUS} WHERE n."chartId" IN (${Prisma.join(ids)}) ${cursor ? afterSql(sort, cursor) : Prisma.empty}
      ) t WHERE t.rn <= ${size + 1} ORDER BY t."chartId", t.rn`,
    db.songNote.groupBy({ by: ['chartId'], where: { chartId: { in: ids } }, _count: { _all: true } }),
  ]);
  const byChart = new Map<number, NoteRow[]>(ids.map((id) => [id, []]));
  for (const r of rows) byChart.get(r.chartId)!.push(r);
  const totals = new Map(counts.map((c) => [c.chartId, c._count._all]));
  const out = new Map<number, Page<SongNote>>();
  for (const [id, list] of byChart)
    out.set(
      id,
      keysetPage(list, size, after, (n) => cursorOf(sort, n), totals.get(id) ?? 0),
    );
  return out;
}

type Scope = Pick<AreaScope, 'db' | 'loaders' | 'viewer'>;

/** Song notes: reads, authoring (author-only edits) and exact upvote counts. */
export class NotesService {
  constructor(private readonly s: Scope) {}

  private get db() {
    return this.s.db;
  }

  private async requireChart(chartId: number): Promise<void> {
    const chart = await this.db.chart.findUnique({ where: { id: chartId }, select: { id: true } });
    if (!chart) throw notFound('Chart not found');
  }

  /** The chart's notes as a field of Chart: one page per chart, batched across the charts asking for the same page. */
  chartNotes(
    chartId: number,
    sort: SongNoteSort,
    first: number | null | undefined,
    after: string | null | undefined,
  ): Promise<Page<SongNote>> {
    const size = pageSize(first);
    if (after) parseNoteCursor(sort, after);
    return this.s.loaders.notes.page.load({ chartId, sort, size, after: after ?? null });
  }

  /** Has the caller upvoted the note? (false when signed out; batched) */
  upvoted(note: Pick<SongNote, 'id'>): Promise<boolean> | boolean {
    const v = this.s.viewer;
    return v ? this.s.loaders.notes.upvoted.load({ userId: v.id, noteId: note.id }) : false;
  }

  /** The author's current total BPI (latest game version; null: none): live, batched. */
  authorTotalBpi(note: Pick<SongNote, 'authorId'>): Promise<number | null> {
    return this.s.loaders.notes.authorTotalBpi.load(note.authorId);
  }

  /** Is the caller the author (may edit and delete)? */
  editable(note: Pick<SongNote, 'authorId'>): boolean {
    return this.s.viewer?.id === note.authorId;
  }

  /** Notes of one chart, newest or most upvoted first (keyset cursors). */
  async listForChart(
    chartId: number,
    sort: SongNoteSort,
    first: number | null | undefined,
    after: string | null | undefined,
  ): Promise<Page<SongNote>> {
    const size = pageSize(first);
    if (after) parseNoteCursor(sort, after);
    await this.requireChart(chartId);
    return (await pagesForCharts(this.db, [chartId], sort, size, after ?? null)).get(chartId)!;
  }

  /**
   * Notes across all charts, keyset pages in the sort's order (the cursors of `songNotes`);
   * `page` N (0-based) starts at N × size instead (the REST path's page number, a bounded feed).
   */
  async listRecent(
    sort: SongNoteSort,
    opts: { first?: number | null; after?: string | null; page?: number | null },
  ): Promise<Page<SongNote>> {
    const size = pageSize(opts.first);
    let offset = 0;
    if (opts.page != null) {
      if (opts.after)
        throw badInput('Give either page or after, not both', [
          { code: 'invalid_arguments', path: ['page'], message: 'Give either page or after, not both' },
        ]);
      if (!Number.isSafeInteger(opts.page) || opts.page < 0) {
        throw badInput('page must be an integer ≥ 0', [
          { code: 'too_small', path: ['page'], message: 'page must be an integer ≥ 0' },
        ]);
      }
      offset = opts.page * size;
    }
    const cursor = opts.after ? parseNoteCursor(sort, opts.after) : null;
    const [rows, totalCount] = await Promise.all([
      this.db.$queryRaw<NoteRow[]>`
        SELECT n.*, st."totalBpi" AS "liveBpi" FROM "SongNote" n ${AUTHOR_STATUS}
        WHERE TRUE ${cursor ? afterSql(sort, cursor) : Prisma.empty}
        ORDER BY ${orderSql(sort)} OFFSET ${offset} LIMIT ${size + 1}`,
      this.db.songNote.count(),
    ]);
    // the live totals read here serve the page's authorTotalBpi fields without another query
    for (const r of rows) this.s.loaders.notes.authorTotalBpi.prime(r.authorId, r.liveBpi ?? null);
    const page = keysetPage(rows, size, opts.after, (n) => cursorOf(sort, n), totalCount);
    return offset > 0 ? { ...page, pageInfo: { ...page.pageInfo, hasPreviousPage: true } } : page;
  }

  async post(chartId: number, rawBody: string): Promise<SongNote> {
    const authorId = viewerId(this.s);
    const body = normaliseNoteBody(rawBody);
    await this.requireChart(chartId);
    const status = await this.db.playerVersionStatus.findUnique({
      where: { userId_version: { userId: authorId, version: LATEST_VERSION } },
      select: { totalBpi: true },
    });
    return this.db.songNote.create({ data: { chartId, authorId, body, authorTotalBpi: status?.totalBpi ?? null } });
  }

  /** Author only (FORBIDDEN for anyone else); `updatedAt` moves. */
  async edit(noteId: number, rawBody: string): Promise<SongNote> {
    const userId = viewerId(this.s);
    const body = normaliseNoteBody(rawBody);
    return this.db.$transaction(async (tx) => {
      const note = await tx.songNote.findUnique({ where: { id: noteId }, select: { authorId: true } });
      if (!note) throw notFound('Note not found');
      if (note.authorId !== userId) throw forbidden('Only the author may edit this note');
      return tx.songNote.update({ where: { id: noteId }, data: { body } });
    });
  }

  /** Author only; the note's upvotes cascade. */
  async delete(noteId: number): Promise<void> {
    const userId = viewerId(this.s);
    await this.db.$transaction(async (tx) => {
      const note = await tx.songNote.findUnique({ where: { id: noteId }, select: { authorId: true } });
      if (!note) throw notFound('Note not found');
      if (note.authorId !== userId) throw forbidden('Only the author may delete this note');
      await tx.songNote.delete({ where: { id: noteId } });
    });
  }

  /**
   * Upvote once per user. The upvote row insert (ON CONFLICT DO NOTHING) and the counter's atomic
   * increment run in one transaction, so the count stays exact under concurrent votes; a second
   * upvote by the same user is an idempotent no-op (changed = false), never a double count.
   */
  async upvote(noteId: number): Promise<{ note: SongNote; changed: boolean }> {
    const userId = viewerId(this.s);
    const result = await this.db.$transaction(async (tx) => {
      await lockNote(tx, noteId);
      const { count } = await tx.songNoteUpvote.createMany({ data: [{ noteId, userId }], skipDuplicates: true });
      if (count === 1) {
        // Raw increment: atomic, and leaves updatedAt (the body's edit time) alone.
        await tx.$executeRaw`UPDATE "SongNote" SET "upvoteCount" = "upvoteCount" + 1 WHERE "id" = ${noteId}`;
      }
      const note = await tx.songNote.findUniqueOrThrow({ where: { id: noteId } });
      return { note, changed: count === 1 };
    });
    this.s.loaders.notes.upvoted.clear({ userId, noteId }).prime({ userId, noteId }, true);
    return result;
  }

  /** Cancels the caller's upvote; idempotent (changed = false when there was none). */
  async cancelUpvote(noteId: number): Promise<{ note: SongNote; changed: boolean }> {
    const userId = viewerId(this.s);
    const result = await this.db.$transaction(async (tx) => {
      await lockNote(tx, noteId);
      const { count } = await tx.songNoteUpvote.deleteMany({ where: { noteId, userId } });
      if (count === 1) {
        await tx.$executeRaw`UPDATE "SongNote" SET "upvoteCount" = "upvoteCount" - 1 WHERE "id" = ${noteId}`;
      }
      const note = await tx.songNote.findUniqueOrThrow({ where: { id: noteId } });
      return { note, changed: count === 1 };
    });
    this.s.loaders.notes.upvoted.clear({ userId, noteId }).prime({ userId, noteId }, false);
    return result;
  }
}
