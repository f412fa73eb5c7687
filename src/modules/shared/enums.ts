/**
 * The domain enums every area's GraphQL types use, registered with type-graphql once. GraphQL type
 * files import them from here (not from src/domain/constants) so that the registration is loaded
 * with them. Enums used by one area only are registered in that area (PatternVote, NotificationType…).
 */
import { registerEnumType } from 'type-graphql';
import { ArenaClass, BpiModel, ClearLamp, Difficulty, PlayStyle, RadarCategory } from '../../domain/constants';

registerEnumType(PlayStyle, { name: 'PlayStyle', description: 'SP (single play) or DP (double play)' });
registerEnumType(Difficulty, { name: 'Difficulty' });
registerEnumType(RadarCategory, { name: 'RadarCategory', description: 'Radar category a chart belongs to' });
registerEnumType(ClearLamp, { name: 'ClearLamp', description: 'Clear lamp, in rank order (NO_PLAY lowest, FULLCOMBO_CLEAR highest)' });
registerEnumType(ArenaClass, { name: 'ArenaClass', description: 'Official arena class, A1 best' });

registerEnumType(BpiModel, {
  name: 'BpiModel',
  description: 'Which BPI: V1 (the default) or V2 (fitted from this server\'s own bests; null on a chart without fitted parameters)',
  valuesConfig: {
    V1: { description: 'World record → 100, kaiden average → 0, from the published definitions (../shared/spec/bpi.md)' },
    V2: { description: 'A skill scale fitted per definitions vintage from the bests stored here (README "BPI V2"); null for a chart with too few players' },
  },
});

export { ArenaClass, BpiModel, ClearLamp, Difficulty, PlayStyle, RadarCategory };
