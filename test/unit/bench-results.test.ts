import { withRun } from '../../bench/lib';

// bench/lib.ts record(): bench/RESULTS.md keeps the newest run per scenario; written entries stay.
describe('withRun: a recorded run replaces the earlier run of its scenario', () => {
  const file = [
    '# Benchmark results',
    '',
    '## Log',
    '',
    '## A written entry about Scale on PostgreSQL — 2026-11-27 10:00–11:00 UTC, 1111111 → 2222222',
    'prose',
    '',
    '## Scale on PostgreSQL — 2026-11-22 06:55 UTC, commit 9affb11',
    'Machine: m. Method: old',
    '',
    '| measure | value | target |',
    '',
    '## BPI calculator throughput — 2026-11-23 22:18 UTC, commit 6fc662c',
    'Machine: m. Method: calc',
    '',
    '## Scale on PostgreSQL — 2026-11-22 16:28 UTC, commit 6f245b1 (before: a hand-edited heading)',
    'kept: not the shape record() writes',
    '',
    '## Scale on PostgreSQL (PGlite) — 2026-11-22 16:30 UTC, commit 6f245b1',
    'another scenario whose title starts the same',
    '',
  ].join('\n');
  const section = '## Scale on PostgreSQL — 2026-11-28 04:00 UTC, commit abcdef0\nMachine: m. Method: new';

  it('drops the earlier run of the same title, keeps everything else in order, appends the new one', () => {
    const out = withRun(file, 'Scale on PostgreSQL', section);
    const headings = out.split('\n').filter((l) => l.startsWith('## '));
    expect(headings).toEqual([
      '## Log',
      '## A written entry about Scale on PostgreSQL — 2026-11-27 10:00–11:00 UTC, 1111111 → 2222222',
      '## BPI calculator throughput — 2026-11-23 22:18 UTC, commit 6fc662c',
      '## Scale on PostgreSQL — 2026-11-22 16:28 UTC, commit 6f245b1 (before: a hand-edited heading)',
      '## Scale on PostgreSQL (PGlite) — 2026-11-22 16:30 UTC, commit 6f245b1',
      '## Scale on PostgreSQL — 2026-11-28 04:00 UTC, commit abcdef0',
    ]);
    expect(out).not.toContain('Method: old');
    // one blank line between sections, one newline at the end
    expect(out).toContain('another scenario whose title starts the same\n\n## Scale on PostgreSQL — 2026-11-28');
    expect(out.endsWith('Method: new\n')).toBe(true);
  });

  it('a scenario recorded for the first time is appended; a title with regex characters is taken literally', () => {
    const out = withRun(
      file,
      'Nested GraphQL read (PGlite)',
      '## Nested GraphQL read (PGlite) — 2026-11-28 04:01 UTC, commit 1234567',
    );
    expect(out.startsWith(file.replace(/\n*$/, '\n'))).toBe(true);
    expect(out.split('\n## ').length).toBe(file.split('\n## ').length + 1);
    expect(withRun(file, 'Scale on PostgreSQL|BPI.*', section)).toContain('## BPI calculator throughput');
  });
});
