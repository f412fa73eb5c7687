import { defineArea } from '../area';

/**
 * The BPI optimizer (domain-stats.md §6): which charts to improve to raise the total BPI most.
 * Its operations land here (src/domain/optimizer holds the pure computation); nothing yet.
 */
export const optimizerArea = defineArea({
  name: 'optimizer',
  resolvers: [],
});
