import type { AreaNodeSource } from '../area';
import { intIdOrNull } from '../../graphql/args';

/** Node sources of the catalogue (`node(id:)`): charts and songs through the request's loaders (as `chart(id:)`, `song(id:)`). */
export const catalogueNodes: Record<string, AreaNodeSource> = {
  Chart: { load: (ctx, keys) => Promise.all(keys.map((k) => ctx.services.catalogue.publicChart(intIdOrNull(k)))) },
  Song: { load: (ctx, keys) => Promise.all(keys.map((k) => ctx.services.catalogue.publicSong(intIdOrNull(k)))) },
};
