import { defineArea } from '../area';
import { catalogueNodes } from './catalogue.nodes';
import { Catalogue, CATALOGUE_CACHE } from './catalogue';
import { createCatalogueLoaders, type CatalogueLoaders } from './catalogue.loaders';
import { CatalogueAdminResolver, ChartsResolver, SongsResolver } from './catalogue.resolver';
import { CatalogueService } from './catalogue.service';

/**
 * The catalogue: songs, charts, definitions (the in-memory Catalogue every area reads, its
 * updates and the recompute job they start), radar categories. Depends on no other area.
 */
export const catalogueArea = defineArea({
  name: 'catalogue',
  resolvers: [SongsResolver, ChartsResolver, CatalogueAdminResolver],
  async setup({ db }) {
    const catalogue = new Catalogue(db);
    await catalogue.load();
    return { catalogue };
  },
  // The in-memory catalogue (and its BPI memo): reloaded in every process after a definitions or radar-category import and when a score export taught it charts.
  caches: ({ catalogue }) => [{ name: CATALOGUE_CACHE, invalidate: () => catalogue.load() }],
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
