/**
 * Per-field bests (pure). A player's current best on a chart keeps, independently, the best EX
 * score, the best lamp and the fewest misses, each with the play it came from: a lamp
 * improvement never lowers the shown EX score (unlike the reference, docs/domain/score-lists.md#plays-bests-and-latest-scores).
 */
import { lampRank, type ClearLamp } from './constants';

export interface Play {
  exScore: number;
  clearLamp: ClearLamp | null;
  missCount: number | null;
}

export interface Best {
  exScore: number;
  exScoreId: number;
  clearLamp: ClearLamp | null;
  clearLampId: number | null;
  missCount: number | null;
  missCountId: number | null;
  playedAt: Date;
}

/** Which fields a play improves over the current best (none → the play is not stored). */
export function improvements(play: Play, best: Pick<Best, 'exScore' | 'clearLamp' | 'missCount'> | undefined) {
  const ex = play.exScore > (best?.exScore ?? 0);
  const lamp = play.clearLamp !== null && lampRank(play.clearLamp) > lampRank(best?.clearLamp ?? null);
  const miss =
    play.missCount !== null &&
    (best?.missCount === null || best?.missCount === undefined || play.missCount < best.missCount);
  return { ex, lamp, miss, any: ex || lamp || miss };
}

/** The best after a stored play (id) — the fields it improves are taken from it. */
export function applyPlay(best: Best | undefined, play: Play & { id: number; playedAt: Date }): Best {
  const imp = improvements(play, best);
  if (!best) {
    return {
      exScore: play.exScore,
      exScoreId: play.id,
      clearLamp: play.clearLamp,
      clearLampId: play.clearLamp ? play.id : null,
      missCount: play.missCount,
      missCountId: play.missCount !== null ? play.id : null,
      playedAt: play.playedAt,
    };
  }
  return {
    exScore: imp.ex ? play.exScore : best.exScore,
    exScoreId: imp.ex ? play.id : best.exScoreId,
    clearLamp: imp.lamp ? play.clearLamp : best.clearLamp,
    clearLampId: imp.lamp ? play.id : best.clearLampId,
    missCount: imp.miss ? play.missCount : best.missCount,
    missCountId: imp.miss ? play.id : best.missCountId,
    playedAt: imp.any && play.playedAt > best.playedAt ? play.playedAt : best.playedAt,
  };
}
