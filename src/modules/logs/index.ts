import { defineArea } from '../area';
import { logNodes } from './logs.nodes';
import { BatchRefResolver, LogsMutationResolver, LogsUserResolver } from './logs.resolver';
import { LogsService } from './logs.service';
import { createLogLoaders, type LogLoaders } from './logs.loaders';
import {
  ImportBatchEdgesResolver,
  LogsEdgesResolver,
  OvertakenRivalEdgesResolver,
  RivalOvertakenSummaryEdgesResolver,
} from './logs.edges';

/** Logs: the import history of a player (batches, play days, periods, version summary). Depends on scores and rivals. */
export const logsArea = defineArea({
  name: 'logs',
  resolvers: [
    LogsMutationResolver,
    LogsUserResolver,
    BatchRefResolver,
    LogsEdgesResolver,
    ImportBatchEdgesResolver,
    OvertakenRivalEdgesResolver,
    RivalOvertakenSummaryEdgesResolver,
  ],
  loaders: createLogLoaders,
  services: (s) => new LogsService(s),
  nodes: logNodes,
});

declare module '../../graphql/context' {
  interface Services {
    logs: LogsService;
  }
  interface Loaders {
    logs: LogLoaders;
  }
}
