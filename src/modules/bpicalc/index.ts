import { defineArea } from '../area';
import { BpiCalcResolver } from './bpicalc.resolver';
import { BpiCalcService } from './bpicalc.service';

/** The single-song BPI calculator (catalogue and arena averages in memory). Depends on the catalogue and arena. */
export const bpicalcArea = defineArea({
  name: 'bpicalc',
  resolvers: [BpiCalcResolver],
  services: (s) => new BpiCalcService(s),
});

declare module '../../graphql/context' {
  interface Services {
    bpicalc: BpiCalcService;
  }
}
