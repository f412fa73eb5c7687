/**
 * The official arena ranking snapshot format (docs/domain/stats.md#arena-trend) and its normalisation.
 * Pure: entries like {"arena_class":"a1","id":"3510-0088","win":"324勝","grade_dp":"---",…}.
 */
import { ARENA_ORDER, ArenaClass } from './constants';

export interface ArenaPlayer {
  gameId: string;
  name: string;
  area: string | null;
  arenaClass: ArenaClass;
  rank: number | null;
  wins: number | null;
  a1Continue: number | null;
  gradeSp: string | null;
  gradeDp: string | null;
  updatedLabel: string | null;
}

export class ArenaFormatError extends Error {}

const int = (v: unknown): number | null => {
  const m = /-?\d+/.exec(String(v ?? ''));
  return m ? Number(m[0]) : null;
};
const text = (v: unknown): string | null => {
  const s = typeof v === 'string' ? v.trim() : '';
  return s && s !== '---' && s !== '-' ? s : null;
};

/** 8 digits without dash from "1234-5678" / "12345678"; null when not a game id. */
export function normalizeGameId(v: unknown): string | null {
  const digits = String(v ?? '')
    .replace(/-/g, '')
    .trim();
  return /^\d{8}$/.test(digits) ? digits : null;
}

export function normalizeArenaRanking(doc: unknown): {
  players: ArenaPlayer[];
  skipped: { index: number; reason: string }[];
} {
  if (!Array.isArray(doc)) throw new ArenaFormatError('Not an arena ranking: expected a JSON array of players');
  const players = new Map<string, ArenaPlayer>();
  const skipped: { index: number; reason: string }[] = [];
  doc.forEach((raw, index) => {
    const e = (raw ?? {}) as Record<string, unknown>;
    const gameId = normalizeGameId(e.id);
    if (!gameId) return skipped.push({ index, reason: 'missing or malformed player id' });
    const cls = String(e.arena_class ?? '').toUpperCase() as ArenaClass;
    if (!ARENA_ORDER.includes(cls))
      return skipped.push({ index, reason: `unknown arena class ${JSON.stringify(e.arena_class)}` });
    const prev = players.get(gameId);
    const p: ArenaPlayer = {
      gameId,
      name: typeof e.name === 'string' ? e.name : '',
      area: text(e.area),
      arenaClass: cls,
      rank: int(e.rank),
      wins: int(e.win),
      a1Continue: int(e.a1continue),
      gradeSp: text(e.grade_sp),
      gradeDp: text(e.grade_dp),
      updatedLabel: text(e.update_date),
    };
    // A player listed twice keeps the better class.
    if (!prev || ARENA_ORDER.indexOf(p.arenaClass) < ARENA_ORDER.indexOf(prev.arenaClass)) players.set(gameId, p);
  });
  return { players: [...players.values()], skipped };
}
