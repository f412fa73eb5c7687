/**
 * src/db/yield.ts ChunkSizer and inChunks: statements of a long piece of database work are split
 * in chunks sized by their time (issue #27: PGlite runs each statement on the main thread). The
 * sizes below are worked out by hand from the rule: per-row time smoothed as the mean of the
 * previous estimate and the last chunk's, next size = targetMs / per-row time, clamped to
 * [min, max] and to twice the last size.
 */
import { ChunkSizer, inChunks } from '../../src/db/yield';

describe('ChunkSizer', () => {
  it('aims at the target from the smoothed per-row time', () => {
    const s = new ChunkSizer({ first: 100, min: 10, max: 1000, targetMs: 30 });
    expect(s.size).toBe(100);
    s.took(100, 60); // 0.6 ms/row (the first sample) → 30 / 0.6 = 50
    expect(s.size).toBe(50);
    s.took(50, 10); // sample 0.2 → (0.6 + 0.2) / 2 = 0.4 ms/row → 30 / 0.4 = 75
    expect(s.size).toBe(75);
    s.took(75, 1.5); // sample 0.02 → (0.4 + 0.02) / 2 = 0.21 → 30 / 0.21 = 142.9 → 143
    expect(s.size).toBe(143);
    s.took(143, 3003); // sample 21 → (0.21 + 21) / 2 = 10.605 → 30 / 10.605 = 2.8: at least min 10
    expect(s.size).toBe(10);
  });

  it('at most doubles, and stays within max', () => {
    const fast = new ChunkSizer({ first: 100, max: 1000, targetMs: 30 });
    fast.took(100, 1); // 0.01 ms/row → 3,000, but at most 2 × 100
    expect(fast.size).toBe(200);
    const capped = new ChunkSizer({ first: 100, max: 150, targetMs: 30 });
    capped.took(100, 1);
    expect(capped.size).toBe(150);
  });

  it('a short last chunk (fewer rows than the size) leaves the size as it is', () => {
    const s = new ChunkSizer({ first: 100 });
    s.took(7, 500);
    expect(s.size).toBe(100);
  });
});

describe('inChunks', () => {
  it('runs consecutive chunks in order and returns their results in order; nothing for no rows', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => i);
    const seen: number[][] = [];
    const out = await inChunks(
      rows,
      async (chunk) => {
        seen.push(chunk);
        return chunk.reduce((a, b) => a + b, 0);
      },
      new ChunkSizer({ first: 10, min: 10, max: 10 }),
    );
    expect(seen).toEqual([rows.slice(0, 10), rows.slice(10, 20), rows.slice(20)]);
    // 0+…+9 = 45, 10+…+19 = 145, 20+…+24 = 110
    expect(out).toEqual([45, 145, 110]);
    expect(await inChunks([], async () => 1)).toEqual([]);
  });
});
