/**
 * The domain enums every area's GraphQL types use, registered with type-graphql once. GraphQL type
 * files import them from here (not from src/domain/constants) so that the registration is loaded
 * with them. Enums used by one area only are registered in that area (PatternVote, NotificationType…).
 */
import { registerEnumType } from 'type-graphql';
import { ArenaClass, ClearLamp, Difficulty, PlayStyle, RadarCategory } from '../../domain/constants';

registerEnumType(PlayStyle, { name: 'PlayStyle', description: 'SP (single play) or DP (double play)' });
registerEnumType(Difficulty, { name: 'Difficulty' });
registerEnumType(RadarCategory, { name: 'RadarCategory', description: 'Radar category a chart belongs to' });
registerEnumType(ClearLamp, { name: 'ClearLamp', description: 'Clear lamp, in rank order (NO_PLAY lowest, FULLCOMBO_CLEAR highest)' });
registerEnumType(ArenaClass, { name: 'ArenaClass', description: 'Official arena class, A1 best' });

export { ArenaClass, ClearLamp, Difficulty, PlayStyle, RadarCategory };
