/**
 * Exports at the request body limit (BODY_LIMIT_BYTES, 4 MiB by default) parse whole and right in
 * every format, including the shapes that used to be quadratic (issue #21, H3: a wide header whose
 * columns were looked up inside the row loop). How long they take is not asserted here (timed unit
 * tests flake on a loaded machine): the hostile suite (test/hostile/data.test.ts) uploads them at the
 * limit and bounds how long /healthz waits, and `npm run bench:hostile` reports the times.
 */
import { loadConfig } from '../../src/config';
import { parseScoreExport } from '../../src/domain/csv';
import { OFFICIAL_HEADER } from '../../src/domain/csv/official-writer';

const LIMIT = loadConfig({}).bodyLimit;

/** Header + rows until the next row would pass `bytes` (UTF-8); returns the text and the row count. */
function fill(header: string, row: (i: number) => string, bytes = LIMIT, eol = '\n'): { text: string; lines: number } {
  const parts = [header];
  let size = Buffer.byteLength(header);
  for (let i = 0; ; i++) {
    const r = row(i);
    const add = Buffer.byteLength(r) + Buffer.byteLength(eol);
    if (size + add > bytes) return { text: parts.join(eol), lines: i };
    parts.push(r);
    size += add;
  }
}

const REFLUX_GROUPS = ['SPB', 'SPN', 'SPH', 'SPA', 'SPL', 'DPN', 'DPH', 'DPA', 'DPL'];
const REFLUX_HEADER = [
  'title',
  'Type',
  'Label',
  'Cost Normal',
  'Cost Hyper',
  'Cost Another',
  'SP DJ Points',
  'DP DJ Points',
  ...REFLUX_GROUPS.flatMap((p) =>
    ['Unlocked', 'Rating', 'Lamp', 'Letter', 'EX Score', 'Miss Count', 'Note Count', 'DJ Points'].map(
      (c) => `${p} ${c}`,
    ),
  ),
].join('\t');

describe(`exports at the body limit (${LIMIT} bytes) parse whole`, () => {
  it('is 4 MiB by default', () => {
    expect(LIMIT).toBe(4 * 1024 * 1024);
  });

  it('official CSV, current layout, BOM and CRLF (3 played charts a row)', () => {
    // per row: BEGINNER not played, NORMAL / HYPER / ANOTHER played, LEGGENDARIA absent (level 0)
    const { text, lines } = fill(
      '\ufeff' + OFFICIAL_HEADER,
      (i) =>
        [
          '33 Sparkle Shower',
          `曲名テスト ${i}`,
          'ジャンル',
          'アーティスト',
          '12',
          '2,0,0,0,---,NO PLAY,---',
          '5,800,350,100,3,FULLCOMBO CLEAR,AAA',
          '10,1500,600,300,12,HARD CLEAR,AA',
          '12,2100,900,300,25,EX HARD CLEAR,AA',
          '0,0,0,0,---,NO PLAY,---',
          '2025-01-02 03:04',
        ].join(','),
      LIMIT,
      '\r\n',
    );
    const r = parseScoreExport(text);
    expect(r.format).toBe('official');
    expect(r.rows).toHaveLength(3 * lines);
    expect(r.issues).toEqual([]);
  });

  it('Reflux TSV, current header (SPB…DPL, 80 columns)', () => {
    const empty = Array(8).fill('').join('\t');
    const { text, lines } = fill(REFLUX_HEADER, (i) =>
      [
        `Title ${i}`,
        'Bits',
        'Bits',
        '1000',
        '1500',
        '2000',
        '0',
        '0',
        empty,
        empty,
        'TRUE\t10\tHC\tAA\t1500\t12\t900\t',
        'TRUE\t12\tEX\tAAA\t2100\t5\t1200\t',
        empty,
        empty,
        empty,
        'TRUE\t12\tNC\tA\t1800\t40\t1300\t',
        empty,
      ].join('\t'),
    );
    const r = parseScoreExport(text);
    expect(r.format).toBe('reflux');
    expect(r.rows).toHaveLength(2 * lines); // SPH and SPA (the DPA play is not asked for)
    expect(r.issues).toEqual([]);
  });

  it('daken counter CSV', () => {
    const { text, lines } = fill(
      'LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),Last Played',
      (i) => `12,Title ${i},${i % 2 ? 'SPA' : 'SPH'},H-CLEAR,${1000 + (i % 1000)},80.00,12,OFF,OFF,2024-05-06 07:08`,
    );
    const r = parseScoreExport(text);
    expect(r.format).toBe('daken_counter');
    expect(r.rows).toHaveLength(lines);
  });

  it('result techo CSV', () => {
    const { text, lines } = fill(
      'バージョン,曲名,ジャンル,アーティスト,難易度,レベル,クリアタイプ,DJ LEVEL,スコア,ミスカウント,最終プレイ日時',
      (i) => `INFINITAS,曲 ${i},g,a,ANOTHER,12,H-CLEAR,AA,2400,15,20240102-030405`,
    );
    const r = parseScoreExport(text);
    expect(r.format).toBe('result_techo');
    expect(r.rows).toHaveLength(lines);
  });

  it('daken counter CSV with every title quoted (all lines through csv-parse)', () => {
    const { text, lines } = fill(
      'LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),Last Played',
      (i) => `12,"Title, ${i} ""x""",SPA,H-CLEAR,1500,80.00,12,OFF,OFF,2024-05-06 07:08`,
    );
    const r = parseScoreExport(text);
    expect(r.rows).toHaveLength(lines);
    expect(r.rows[1].title).toBe('Title, 1 "x"');
  });

  it('daken counter CSV with a stray quote on every line (each line read on its own, never merged)', () => {
    const { text, lines } = fill(
      'LV,Title,mode,Lamp,Score,(rate),BP,Opt(best score),Opt(min bp),Last Played',
      (i) => `12,"Title ${i},SPA,H-CLEAR,1500,80.00,12,OFF,OFF,2024-05-06 07:08`,
    );
    const r = parseScoreExport(text);
    expect(r.rows).toHaveLength(lines);
    expect(r.rows[1]).toMatchObject({ line: 3, title: '"Title 1', exScore: 1500 });
  });

  // The quadratic case: a wide header (≈ 200 KB of unused columns, the looked-up optional columns
  // absent) and many short rows. Time ∝ rows × columns before the fix.
  const FILLER = ',x'.repeat(100_000);

  it('daken counter CSV with a wide header', () => {
    const { text, lines } = fill('LV,Title,mode,Lamp,Score' + FILLER, (i) => `12,T${i},SPA,CLEAR,100`);
    const r = parseScoreExport(text);
    expect(r.rows).toHaveLength(lines);
    expect(r.rows[0]).toMatchObject({
      title: 'T0',
      difficulty: 'ANOTHER',
      exScore: 100,
      missCount: null,
      lastPlayed: null,
    });
  });

  it('result techo CSV with a wide header', () => {
    const { text, lines } = fill(
      '曲名,難易度,クリアタイプ,スコア,バージョン' + FILLER,
      (i) => `T${i},HYPER,CLEAR,100,INF`,
    );
    const r = parseScoreExport(text);
    expect(r.rows).toHaveLength(lines);
  });

  it('Reflux TSV with a wide header', () => {
    const { text, lines } = fill(
      'title\tType\tLabel\tSPA Lamp\tSPA EX Score' + FILLER.replace(/,/g, '\t'),
      (i) => `T${i}\tx\ty\tHC\t100`,
    );
    const r = parseScoreExport(text);
    expect(r.rows).toHaveLength(lines);
  });
});
