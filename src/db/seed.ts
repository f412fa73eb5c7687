import type { Db } from './client';
import { DEMO_DEFINITIONS_VERSION, importDefinitions } from './definitions';

/** Deterministic PRNG (mulberry32) so the demo catalogue is the same on every machine. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'Aurora',
  'Binary',
  'Cascade',
  'Delta',
  'Ember',
  'Fractal',
  'Glacier',
  'Horizon',
  'Ion',
  'Jade',
  'Kinetic',
  'Lumen',
  'Meteor',
  'Nebula',
  'Obsidian',
  'Prism',
  'Quasar',
  'Radiant',
  'Solstice',
  'Tempest',
  'Umbra',
  'Vertex',
  'Wavelength',
  'Xenon',
  'Zenith',
];
const SUFFIX = ['Drive', 'Overture', 'Protocol', 'Rush', 'Theory', 'Storm', 'Garden', 'Signal'];

/**
 * A small fictional catalogue in the published definitions format: 36 songs, SP/DP HYPER,
 * ANOTHER and some LEGGENDARIA charts of level 11–12 with plausible notes, WR and kaiden averages.
 */
export function demoDefinitions(): { version: string; requireVersion: string; body: Record<string, unknown>[] } {
  const r = rng(20261122);
  const body: Record<string, unknown>[] = [];
  for (let i = 0; i < 36; i++) {
    const title = `${WORDS[i % WORDS.length]} ${SUFFIX[Math.floor(i / 4) % SUFFIX.length]}${i >= WORDS.length ? ' II' : ''}`;
    const bpmBase = 120 + Math.floor(r() * 90);
    const bpm = r() < 0.15 ? `${Math.floor(bpmBase / 2)}-${bpmBase + 40}` : String(bpmBase);
    const folder = 20 + Math.floor(r() * 13);
    const charts: [string, number][] = [
      ['3', 11],
      ['4', r() < 0.5 ? 11 : 12],
      ['9', r() < 0.5 ? 11 : 12],
    ];
    if (i % 5 === 0) charts.push(['10', 12]);
    for (const [code, level] of charts) {
      const notes = Math.floor((level === 12 ? 1500 : 1150) + r() * 600 - (code === '3' ? 300 : 0));
      const max = notes * 2;
      const wr = Math.floor(max * (0.92 + r() * 0.06));
      const avg = Math.floor(max * (0.78 + r() * 0.07));
      body.push({
        title,
        difficulty: code,
        wr,
        avg,
        notes,
        bpm,
        textage: `${folder}/demo${i}.html`,
        difficultyLevel: String(level),
        dpLevel: code === '9' ? String(level) : '0',
        coef: r() < 0.5 ? -1 : Number((0.8 + r() * 0.6).toFixed(6)),
      });
    }
  }
  return { version: DEMO_DEFINITIONS_VERSION, requireVersion: '0', body };
}

/** Seeds the demo catalogue when the catalogue is empty (the first real definitions import removes it again); returns the number of charts created (0 if none). */
export async function seedDemoCatalogue(db: Db): Promise<number> {
  if ((await db.song.count()) > 0) return 0;
  const report = await importDefinitions(db, demoDefinitions());
  return report.chartsCreated;
}
