import { defineArea } from '../area';
import { LogsMutationResolver, LogsUserResolver } from './logs.resolver';
import { LogsService } from './logs.service';

/** Logs: the import history of a player (batches, play days, periods, version summary). Depends on scores and rivals. */
export const logsArea = defineArea({
  name: 'logs',
  resolvers: [LogsMutationResolver, LogsUserResolver],
  services: (s) => new LogsService(s),
});

declare module '../../graphql/context' {
  interface Services {
    logs: LogsService;
  }
}
