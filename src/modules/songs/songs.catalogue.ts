import type { Db } from '../../db/client';
import type { Difficulty, PlayStyle, RadarCategory } from '../../generated/prisma/enums';

export interface CatalogueDefinition {
  id: number;
  definitionsVersion: string;
  wr: number | null;
  kaidenAvg: number | null;
  coef: number | null;
  notes: number;
}

export interface CatalogueChart {
  id: number;
  songId: number;
  title: string;
  playStyle: PlayStyle;
  difficulty: Difficulty;
  level: number;
  notes: number;
  bpm: string;
  releasedVersion: number | null;
  removedInVersion: string | null;
  radarCategory: RadarCategory | null;
  definition: CatalogueDefinition | null;
}

const key = (title: string, playStyle: PlayStyle, difficulty: Difficulty) => `${title}\u0000${playStyle}\u0000${difficulty}`;

/**
 * In-memory catalogue: every chart with its current definition, by id and by
 * title + play style + difficulty. Loaded once at start and reloaded after a definitions
 * import, so hot paths (the BPI calculator, CSV matching) never query the database for charts.
 */
export class Catalogue {
  private byId = new Map<number, CatalogueChart>();
  private byKey = new Map<string, CatalogueChart>();
  private currentDefinitionsVersion: string | null = null;

  constructor(private readonly db: Db) {}

  async load(): Promise<void> {
    const charts = await this.db.chart.findMany({
      include: {
        song: { select: { title: true } },
        definitions: { where: { isCurrent: true }, take: 1 },
      },
    });
    const byId = new Map<number, CatalogueChart>();
    const byKey = new Map<string, CatalogueChart>();
    for (const c of charts) {
      const d = c.definitions[0];
      const entry: CatalogueChart = {
        id: c.id,
        songId: c.songId,
        title: c.song.title,
        playStyle: c.playStyle,
        difficulty: c.difficulty,
        level: c.level,
        notes: c.notes,
        bpm: c.bpm,
        releasedVersion: c.releasedVersion,
        removedInVersion: c.removedInVersion,
        radarCategory: c.radarCategory,
        definition: d
          ? { id: d.id, definitionsVersion: d.definitionsVersion, wr: d.wr, kaidenAvg: d.kaidenAvg, coef: d.coef, notes: d.notes }
          : null,
      };
      byId.set(c.id, entry);
      byKey.set(key(entry.title, c.playStyle, c.difficulty), entry);
    }
    const latest = await this.db.definitionsRelease.findFirst({ orderBy: { importedAt: 'desc' } });
    this.byId = byId;
    this.byKey = byKey;
    this.currentDefinitionsVersion = latest?.version ?? null;
  }

  get size(): number {
    return this.byId.size;
  }

  get definitionsVersion(): string | null {
    return this.currentDefinitionsVersion;
  }

  chart(id: number): CatalogueChart | undefined {
    return this.byId.get(id);
  }

  find(title: string, playStyle: PlayStyle, difficulty: Difficulty): CatalogueChart | undefined {
    return this.byKey.get(key(title, playStyle, difficulty));
  }

  charts(): IterableIterator<CatalogueChart> {
    return this.byId.values();
  }
}
