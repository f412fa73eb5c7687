import type { Db } from './client';
import type { Chart, ChartDefinition } from '../generated/prisma/client';
import { normalizeDefinitions, type NormalizedDefinition } from '../domain/definitions';
import { titleKey } from '../domain/titles';

/** The release version of the fictional demo catalogue (src/db/seed.ts); every `demo-…` version is demo data. */
export const DEMO_DEFINITIONS_VERSION = 'demo-1';
const DEMO_PREFIX = 'demo-';
export const isDemoRelease = (version: string) => version.startsWith(DEMO_PREFIX);
/**
 * The definitions lock (a transaction-level advisory lock): a definitions import holds it
 * exclusive, score writers shared (src/modules/scores/current-definitions.ts).
 */
export const DEFINITIONS_LOCK_KEY = 727_304;

/**
 * Which definitions are current, in two numbers: the largest current definition id and the number
 * of charts with a current definition. Every change of the definitions moves it and it never comes
 * back to an earlier value (a changed definition is a new row with a larger id; a retired one
 * lowers the count, or the largest id when it was that row — ids are never reused).
 */
export interface DefinitionsFingerprint {
  top: number;
  n: number;
}

/** The definitions fingerprint as the database (or the transaction `q`) sees it now. */
export async function definitionsFingerprint(q: Pick<Db, '$queryRawUnsafe'>): Promise<DefinitionsFingerprint> {
  const [fp] = await q.$queryRawUnsafe<DefinitionsFingerprint[]>(
    `SELECT coalesce(max("id"), 0)::int AS top, count(DISTINCT "chartId")::int AS n
       FROM "ChartDefinition" WHERE "isCurrent"`,
  );
  return { top: Number(fp.top), n: Number(fp.n) };
}

export interface DefinitionsImportReport {
  version: string;
  /** Demo songs removed by this import (the first real release purges the demo catalogue, with everything on its charts). */
  demoSongsPurged: number;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  /** charts with a current definition that this file no longer lists: their definition is retired */
  absent: number;
  duplicates: number;
  problems: { index: number; title?: string; reason: string }[];
  songsCreated: number;
  chartsCreated: number;
  /** provisional charts (learned from exports) this release lists: ordinary from now on, their scores kept */
  chartsAdopted: number;
  /** charts whose current definition was added, changed or retired */
  changedChartIds: number[];
}

const chartKey = (songId: number, playStyle: string, difficulty: string) =>
  `${songId}\u0000${playStyle}\u0000${difficulty}`;

const sameDefinition = (d: ChartDefinition, e: NormalizedDefinition) =>
  d.wr === e.wr && d.kaidenAvg === e.kaidenAvg && (d.coef ?? null) === e.coef && d.notes === e.notes;

/**
 * Imports a published definitions document in one transaction: upserts songs and charts,
 * records each changed definition as a new history row tagged with the release version (the
 * previous row stops being current), marks removed charts. Importing the same file twice
 * changes nothing.
 */
export async function importDefinitions(
  db: Db,
  doc: unknown,
  onProgress?: (done: number, total: number) => void,
): Promise<DefinitionsImportReport> {
  const norm = normalizeDefinitions(doc);
  const report: DefinitionsImportReport = {
    version: norm.version,
    demoSongsPurged: 0,
    added: 0,
    changed: 0,
    unchanged: 0,
    removed: 0,
    absent: 0,
    duplicates: norm.duplicates,
    problems: norm.problems,
    songsCreated: 0,
    chartsCreated: 0,
    chartsAdopted: 0,
    changedChartIds: [],
  };
  const purgedChartIds: number[] = [];
  await db.$transaction(
    async (tx) => {
      // no score writer is between its catalogue check and its commit (they hold it shared)
      await tx.$queryRawUnsafe('SELECT 1 AS ok FROM (SELECT pg_advisory_xact_lock($1)) AS l', DEFINITIONS_LOCK_KEY);
      // Demo data never mixes with real definitions: the first real release removes the demo
      // songs (charts, scores and notes on them cascade) and the demo release itself.
      if (
        !isDemoRelease(norm.version) &&
        (await tx.definitionsRelease.count({ where: { version: { startsWith: DEMO_PREFIX } } }))
      ) {
        const demo = { definitionsVersion: { startsWith: DEMO_PREFIX } };
        const real = { NOT: demo };
        const demoSongs = await tx.song.findMany({
          where: { charts: { some: { definitions: { some: demo } }, none: { definitions: { some: real } } } },
          select: { id: true, charts: { select: { id: true } } },
        });
        if (demoSongs.length) await tx.song.deleteMany({ where: { id: { in: demoSongs.map((s) => s.id) } } });
        await tx.chartDefinition.deleteMany({ where: demo });
        await tx.definitionsRelease.deleteMany({ where: { version: { startsWith: DEMO_PREFIX } } });
        report.demoSongsPurged = demoSongs.length;
        purgedChartIds.push(...demoSongs.flatMap((s) => s.charts.map((c) => c.id)));
      }
      const known = await tx.definitionsRelease.findUnique({ where: { version: norm.version } });
      if (!known)
        await tx.definitionsRelease.create({ data: { version: norm.version, requireVersion: norm.requireVersion } });
      // songs
      const titles = [...new Set(norm.entries.map((e) => e.title))];
      const existingSongs = await tx.song.findMany({
        where: { title: { in: titles } },
        select: { id: true, title: true },
      });
      const songIds = new Map(existingSongs.map((s) => [s.title, s.id]));
      // A provisional song learned from an export under another spelling of the title (same title
      // key: src/domain/titles.ts) is this song: it takes the release's title (docs/imports-provisional.md).
      if (titles.some((t) => !songIds.has(t))) {
        const learned = await tx.song.findMany({ where: { provisional: true }, select: { id: true, title: true } });
        const byKey = new Map(learned.map((s) => [titleKey(s.title), s]));
        for (const t of titles) {
          const s = songIds.has(t) ? undefined : byKey.get(titleKey(t));
          if (!s) continue;
          byKey.delete(titleKey(t));
          await tx.song.update({ where: { id: s.id }, data: { title: t } });
          songIds.set(t, s.id);
        }
      }
      const newTitles = titles.filter((t) => !songIds.has(t));
      if (newTitles.length) {
        await tx.song.createMany({ data: newTitles.map((title) => ({ title })) });
        const created = await tx.song.findMany({
          where: { title: { in: newTitles } },
          select: { id: true, title: true },
        });
        for (const s of created) songIds.set(s.title, s.id);
        report.songsCreated = newTitles.length;
      }
      // charts
      const charts = await tx.chart.findMany({ where: { songId: { in: [...songIds.values()] } } });
      const chartByKey = new Map<string, Chart>(charts.map((c) => [chartKey(c.songId, c.playStyle, c.difficulty), c]));
      const createdKeys = new Set<string>();
      const missing = norm.entries.filter(
        (e) => !chartByKey.has(chartKey(songIds.get(e.title)!, e.playStyle, e.difficulty)),
      );
      if (missing.length) {
        await tx.chart.createMany({
          data: missing.map((e) => ({
            songId: songIds.get(e.title)!,
            playStyle: e.playStyle,
            difficulty: e.difficulty,
            level: e.level,
            notes: e.notes,
            bpm: e.bpm,
            textage: e.textage,
            releasedVersion: e.releasedVersion,
            removedInVersion: e.removedInVersion,
          })),
        });
        report.chartsCreated = missing.length;
        for (const e of missing) createdKeys.add(chartKey(songIds.get(e.title)!, e.playStyle, e.difficulty));
        const again = await tx.chart.findMany({
          where: { songId: { in: [...new Set(missing.map((e) => songIds.get(e.title)!))] } },
        });
        for (const c of again) chartByKey.set(chartKey(c.songId, c.playStyle, c.difficulty), c);
      }
      // current definitions
      const chartIds = norm.entries.map(
        (e) => chartByKey.get(chartKey(songIds.get(e.title)!, e.playStyle, e.difficulty))!.id,
      );
      // the release lists them: provisional charts and songs become ordinary (their scores stay)
      report.chartsAdopted = (
        await tx.chart.updateMany({ where: { id: { in: chartIds }, provisional: true }, data: { provisional: false } })
      ).count;
      await tx.song.updateMany({
        where: { id: { in: [...songIds.values()] }, provisional: true },
        data: { provisional: false },
      });
      const current = await tx.chartDefinition.findMany({ where: { isCurrent: true } });
      const currentByChart = new Map(current.map((d) => [d.chartId, d]));
      const inThisFile = await tx.chartDefinition.findMany({
        where: { definitionsVersion: norm.version, chartId: { in: chartIds } },
      });
      const thisFileByChart = new Map(inThisFile.map((d) => [d.chartId, d]));
      const toCreate: { chartId: number; e: NormalizedDefinition }[] = [];
      const retire: number[] = [];
      let done = 0;
      for (const [i, e] of norm.entries.entries()) {
        const chart = chartByKey.get(chartKey(songIds.get(e.title)!, e.playStyle, e.difficulty))!;
        const chartId = chartIds[i];
        const cur = currentByChart.get(chartId);
        if (!cur) {
          report.added++;
          toCreate.push({ chartId, e });
        } else if (sameDefinition(cur, e)) {
          report.unchanged++;
        } else {
          report.changed++;
          retire.push(cur.id);
          toCreate.push({ chartId, e });
        }
        const chartChanged =
          chart.level !== e.level ||
          chart.notes !== e.notes ||
          chart.bpm !== e.bpm ||
          chart.textage !== e.textage ||
          (e.releasedVersion !== null && chart.releasedVersion !== e.releasedVersion) ||
          (e.removedInVersion !== null && chart.removedInVersion !== e.removedInVersion);
        const isNew = createdKeys.has(chartKey(chart.songId, chart.playStyle, chart.difficulty));
        if (e.removedInVersion !== null && (isNew || chart.removedInVersion === null)) report.removed++;
        if (chartChanged) {
          await tx.chart.update({
            where: { id: chart.id },
            data: {
              level: e.level,
              notes: e.notes,
              bpm: e.bpm,
              textage: e.textage,
              ...(e.releasedVersion !== null ? { releasedVersion: e.releasedVersion } : {}),
              ...(e.removedInVersion !== null ? { removedInVersion: e.removedInVersion } : {}),
            },
          });
        }
        if (++done % 200 === 0) onProgress?.(done, norm.entries.length);
      }
      if (retire.length)
        await tx.chartDefinition.updateMany({ where: { id: { in: retire } }, data: { isCurrent: false } });
      // A re-import of the same release with new values replaces that release's row.
      const replace = toCreate
        .filter((c) => thisFileByChart.has(c.chartId))
        .map((c) => thisFileByChart.get(c.chartId)!.id);
      if (replace.length) await tx.chartDefinition.deleteMany({ where: { id: { in: replace } } });
      if (toCreate.length) {
        await tx.chartDefinition.createMany({
          data: toCreate.map(({ chartId, e }) => ({
            chartId,
            definitionsVersion: norm.version,
            wr: e.wr,
            kaidenAvg: e.kaidenAvg,
            coef: e.coef,
            notes: e.notes,
            isCurrent: true,
          })),
        });
      }
      // Charts the release no longer lists stop being BPI targets (history is kept).
      const listed = new Set(chartIds);
      const gone = current.filter((d) => !listed.has(d.chartId));
      report.absent = gone.length;
      if (gone.length)
        await tx.chartDefinition.updateMany({
          where: { id: { in: gone.map((d) => d.id) } },
          data: { isCurrent: false },
        });
      report.changedChartIds = [...toCreate.map((c) => c.chartId), ...gone.map((d) => d.chartId), ...purgedChartIds];
      if (!known || report.added + report.changed + report.removed + report.absent > 0)
        await tx.definitionsRelease.update({
          where: { version: norm.version },
          data: {
            added: report.added,
            changed: report.changed,
            unchanged: report.unchanged,
            removed: report.removed,
            importedAt: new Date(),
          },
        });
      onProgress?.(norm.entries.length, norm.entries.length);
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
  return report;
}
