/**
 * The ranking core shared by the cross-player parts (tower ranking, docs/domain/stats.md#tower;
 * global ranking by radar category, docs/domain/stats.md#rankings): order, competition ranks, the
 * viewer's own rank, paging and masking.
 *
 * Rules:
 * - Higher value first; equal values share a rank (competition ranking "1224"; the reference
 *   numbers ties 1, 2, 3 by row order) and are listed by user id for stable pages.
 * - `selfRank` is the viewer's rank over the whole population (null when absent), whatever page
 *   is asked for.
 * - Identity: a row whose `visible` is false (decided by the service through the rule table —
 *   e.g. a private player who is not the viewer) is masked: `isMasked` true, `userId`,
 *   `profileImage`, `gameId` null and the name "非公開ユーザー". Its value and rank stay. The
 *   viewer's own row is never masked for the viewer (the reference masks it). Nothing of a
 *   masked row can be used to find the player: no id, no stable pseudonym.
 */
import { MASKED_USER_NAME } from '../profile';
import { competitionRanks } from './common';

export interface RankingIdentity {
  userId: string;
  name: string;
  profileImage: string | null;
  gameId: string | null;
  /** may the viewer see who this is? (rule table; the viewer's own row is always visible) */
  visible: boolean;
}

export interface RankedRow<T> {
  rank: number;
  isSelf: boolean;
  isMasked: boolean;
  userId: string | null;
  name: string;
  profileImage: string | null;
  gameId: string | null;
  value: number;
  data: T;
}

export interface RankingPage<T> {
  entries: RankedRow<T>[];
  totalCount: number;
  selfRank: number | null;
  /** the viewer's own row (null when absent) */
  self: RankedRow<T> | null;
  offset: number;
  hasNextPage: boolean;
}

/**
 * Which rows of the sorted population a page holds: an offset window, or a selector (the service's
 * keyset: rows after / before a cursor's (value, userId)), whose rows are returned in its order.
 */
export type RankingPageSelector<T> =
  { offset: number; limit: number } | ((sorted: readonly T[], valueOf: (r: T) => number) => readonly T[]);

export function rankRows<T extends RankingIdentity>(
  rows: readonly T[],
  valueOf: (r: T) => number,
  viewerId: string | null,
  page: RankingPageSelector<T>,
): RankingPage<Omit<T, keyof RankingIdentity>> {
  const sorted = [...rows].sort(
    (a, b) => valueOf(b) - valueOf(a) || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0),
  );
  const ranks = competitionRanks(sorted.map(valueOf));
  const toRow = (r: T, i: number): RankedRow<Omit<T, keyof RankingIdentity>> => {
    const isSelf = viewerId !== null && r.userId === viewerId;
    const shown = isSelf || r.visible;
    const { userId, name, profileImage, gameId, visible: _v, ...data } = r;
    return {
      rank: ranks[i],
      isSelf,
      isMasked: !shown,
      userId: shown ? userId : null,
      name: shown ? name : MASKED_USER_NAME,
      profileImage: shown ? profileImage : null,
      gameId: shown ? gameId : null,
      value: valueOf(r),
      data,
    };
  };
  const selfIndex = viewerId === null ? -1 : sorted.findIndex((r) => r.userId === viewerId);
  const base = {
    totalCount: sorted.length,
    selfRank: selfIndex >= 0 ? ranks[selfIndex] : null,
    self: selfIndex >= 0 ? toRow(sorted[selfIndex], selfIndex) : null,
  };
  if (typeof page === 'function') {
    const index = new Map(sorted.map((r, i) => [r, i]));
    const picked = page(sorted, valueOf);
    return {
      ...base,
      entries: picked.map((r) => toRow(r, index.get(r)!)),
      offset: picked.length ? index.get(picked[0])! : 0,
      hasNextPage: false,
    };
  }
  return {
    ...base,
    entries: sorted.slice(page.offset, page.offset + page.limit).map((r, k) => toRow(r, page.offset + k)),
    offset: page.offset,
    hasNextPage: page.offset + page.limit < sorted.length,
  };
}
