import type { GraphQLSchema } from 'graphql';
import { buildAppSchema } from './graphql/schema';
import { AREAS } from './modules';
import { areaNodes } from './modules/area';

let built: Promise<GraphQLSchema> | undefined;

/** The application's schema, built once per process from the resolvers the area manifests list. */
export function getSchema(): Promise<GraphQLSchema> {
  built ??= buildAppSchema(
    AREAS.flatMap((a) => a.resolvers ?? []),
    areaNodes(AREAS),
  );
  return built;
}
