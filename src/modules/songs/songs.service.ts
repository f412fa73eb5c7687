import type { Db } from '../../db/client';
import type { Prisma, Song } from '../../generated/prisma/client';
import { badInput } from '../../errors';
import { decodeCursor, encodeCursor, pageSize, type Page } from '../../graphql/connection';
import type { Difficulty, PlayStyle } from '../../domain/constants';

export interface SongFilterInput {
  title?: string | null;
  level?: number | null;
  difficulty?: Difficulty | null;
  playStyle?: PlayStyle | null;
  releasedVersion?: number | null;
}

/** Catalogue reads (songs, charts). */
export class SongsService {
  constructor(private readonly db: Db) {}

  async listSongs(filter: SongFilterInput | null | undefined, first: number | null | undefined, after: string | null | undefined): Promise<Page<Song>> {
    const size = pageSize(first);
    if (filter?.level != null && (filter.level < 1 || filter.level > 12)) throw badInput('level must be between 1 and 12');
    const chartWhere: Prisma.ChartWhereInput = {};
    if (filter?.level != null) chartWhere.level = filter.level;
    if (filter?.difficulty) chartWhere.difficulty = filter.difficulty;
    if (filter?.playStyle) chartWhere.playStyle = filter.playStyle;
    if (filter?.releasedVersion != null) chartWhere.releasedVersion = filter.releasedVersion;
    const where: Prisma.SongWhereInput = {};
    if (Object.keys(chartWhere).length) where.charts = { some: chartWhere };
    if (filter?.title) where.title = { contains: filter.title, mode: 'insensitive' };
    const cursorWhere: Prisma.SongWhereInput = {};
    if (after) {
      const [title, id] = decodeCursor(after, 2);
      if (typeof title !== 'string' || typeof id !== 'number') throw badInput('Invalid cursor');
      cursorWhere.OR = [{ title: { gt: title } }, { title, id: { gt: id } }];
    }
    const [rows, totalCount] = await Promise.all([
      this.db.song.findMany({ where: { AND: [where, cursorWhere] }, orderBy: [{ title: 'asc' }, { id: 'asc' }], take: size + 1 }),
      this.db.song.count({ where }),
    ]);
    const edges = rows.slice(0, size).map((node) => ({ cursor: encodeCursor([node.title, node.id]), node }));
    return {
      edges,
      totalCount,
      pageInfo: {
        hasNextPage: rows.length > size,
        hasPreviousPage: Boolean(after),
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges[edges.length - 1]?.cursor ?? null,
      },
    };
  }
}
