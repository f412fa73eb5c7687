#!/usr/bin/env node
// Writes examples/: a fictional catalogue in the published definitions format, the radar category
// of each of its SP charts, and an official-layout score export of a made-up player. Nothing here is
// real data (the published definitions and real exports stay outside the repository); the numbers
// are plausible and deterministic: `node scripts/make-examples.js` writes the same files every time.
const fs = require('node:fs');
const path = require('node:path');

function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const r = rng(20261127);
const A = [
  'Amber',
  'Crimson',
  'Distant',
  'Electric',
  'Frozen',
  'Golden',
  'Hidden',
  'Iron',
  'Lunar',
  'Midnight',
  'Neon',
  'Silent',
  'Solar',
  'Velvet',
  'Wild',
];
const B = ['Anthem', 'Breaker', 'Circuit', 'Dream', 'Echo', 'Flare', 'Groove', 'Harbor', 'Labyrinth', 'Mirage'];
const CATEGORIES = ['NOTES', 'CHORD', 'PEAK', 'CHARGE', 'SCRATCH', 'SOFLAN'];
const DIFFS = ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'];

const body = [];
const categories = [];
const songs = [];
for (let i = 0; i < 150; i++) {
  const title = `${A[i % A.length]} ${B[Math.floor(i / A.length) % B.length]}`;
  const bpmBase = 120 + Math.floor(r() * 90);
  const charts = [
    ['3', 'HYPER', r() < 0.7 ? 11 : 12],
    ['4', 'ANOTHER', i < 120 ? 12 : 11],
    ['9', 'DP ANOTHER', r() < 0.5 ? 11 : 12],
  ];
  const song = { title, charts: {} };
  for (const [code, name, level] of charts) {
    const notes = Math.floor((level === 12 ? 1500 : 1150) + r() * 600);
    const max = notes * 2;
    const wr = Math.floor(max * (0.92 + r() * 0.06));
    const avg = Math.floor(max * (0.78 + r() * 0.07));
    body.push({
      title,
      difficulty: code,
      wr,
      avg,
      notes,
      bpm: String(bpmBase),
      textage: `example/${i}.html`,
      difficultyLevel: String(level),
      dpLevel: code === '9' ? String(level) : '0',
      coef: -1,
    });
    if (code !== '9')
      categories.push({ title, difficulty: name, top: CATEGORIES[Math.floor(r() * CATEGORIES.length)] });
    song.charts[name] = { level, notes, wr, avg };
  }
  songs.push(song);
}

// A made-up player: the 120 SP ANOTHER ☆12 charts, EX between the kaiden average and the record.
const header = [
  'バージョン',
  'タイトル',
  'ジャンル',
  'アーティスト',
  'プレー回数',
  ...DIFFS.flatMap((d) => [
    `${d} 難易度`,
    `${d} スコア`,
    `${d} PGreat`,
    `${d} Great`,
    `${d} ミスカウント`,
    `${d} クリアタイプ`,
    `${d} DJ LEVEL`,
  ]),
  '最終プレー日時',
].join(',');
const lamps = ['CLEAR', 'HARD CLEAR', 'EX HARD CLEAR', 'EASY CLEAR'];
const djLevel = (rate) => (rate >= 8 / 9 ? 'AAA' : rate >= 7 / 9 ? 'AA' : rate >= 6 / 9 ? 'A' : 'B');
const lines = [header];
songs.slice(0, 120).forEach((song, i) => {
  const c = song.charts.ANOTHER;
  const ex = Math.floor(c.avg + (c.wr - c.avg) * r() * 0.6);
  const great = Math.floor(ex * 0.12) - (Math.floor(ex * 0.12) % 1);
  const pgreat = (ex - great) / 2;
  const pg = Math.floor(pgreat);
  const gr = ex - pg * 2;
  const empty = ['0', '0', '0', '0', '---', 'NO PLAY', '---'];
  const another = [
    String(c.level),
    String(ex),
    String(pg),
    String(gr),
    String(Math.floor(r() * 30)),
    lamps[i % lamps.length],
    djLevel(ex / (c.notes * 2)),
  ];
  const day = String(1 + (i % 28)).padStart(2, '0');
  lines.push(
    [
      '33 Sparkle Shower',
      song.title,
      '-',
      '-',
      String(2 + (i % 9)),
      ...empty,
      ...empty,
      ...empty,
      ...another,
      ...empty,
      `2025-10-${day} 21:00`,
    ].join(','),
  );
});

const dir = path.join(__dirname, '..', 'examples');
fs.writeFileSync(
  path.join(dir, 'definitions.json'),
  JSON.stringify({ version: '20990101', requireVersion: '0', body }) + '\n',
);
fs.writeFileSync(path.join(dir, 'chart-categories.json'), JSON.stringify(categories, null, 1) + '\n');
fs.writeFileSync(path.join(dir, 'score.csv'), lines.join('\n') + '\n');
console.log(`examples/: ${body.length} charts, ${categories.length} categories, ${lines.length - 1} score rows`);
