import { defineArea } from '../area';
import { catalogueNodes } from './catalogue.nodes';
import { Catalogue, CATALOGUE_CACHE } from './catalogue';
import { createCatalogueLoaders, type CatalogueLoaders } from './catalogue.loaders';
import { CatalogueAdminResolver, ChartsResolver, SongsResolver } from './catalogue.resolver';
import { CatalogueService } from './catalogue.service';
import { ProvisionalResolver } from './provisional.resolver';
import { BPI_V2_CACHE, BpiV2Job } from './bpi-v2.job';
import { BPI_V2_LOCK_KEY, createClusterLock } from '../../cluster/lock';

/**
 * The catalogue: songs, charts, definitions (the in-memory Catalogue every area reads, its
 * updates and the recompute job they start), radar categories. Depends on no other area.
 */
export const catalogueArea = defineArea({
  name: 'catalogue',
  resolvers: [SongsResolver, ChartsResolver, CatalogueAdminResolver, ProvisionalResolver],
  async setup({ db, database, caches, log, bus }) {
    const catalogue = new Catalogue(db);
    await catalogue.load();
    const lock = createClusterLock(database.kind === 'postgres' ? database.url : undefined, BPI_V2_LOCK_KEY, log);
    const bpiV2 = new BpiV2Job({ db, catalogue, caches, log }, { lock, instanceId: bus.instanceId });
    return { catalogue, bpiV2 };
  },
  // The in-memory catalogue (and its BPI memo, and the V2 parameters of its vintage): reloaded in every process after a definitions or radar-category import and when a score export taught it charts.
  // The BPI V2 parameters alone: reloaded in every process after a BPI V2 fit stored new ones.
  caches: ({ catalogue }) => [
    { name: CATALOGUE_CACHE, invalidate: () => catalogue.load() },
    { name: BPI_V2_CACHE, invalidate: () => catalogue.loadBpiV2() },
  ],
  loaders: createCatalogueLoaders,
  nodes: catalogueNodes,
  services: (s) => new CatalogueService(s),
});

declare module '../../graphql/context' {
  interface Services {
    catalogue: CatalogueService;
  }
  interface Loaders {
    catalogue: CatalogueLoaders;
  }
}
