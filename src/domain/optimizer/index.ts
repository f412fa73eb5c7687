/**
 * The optimizer area's pure core (issue #16): the BPI plan (plan.ts, on solver.ts), its argument
 * validation (input.ts) and the lane-ticket ranking (tickets.ts). No I/O.
 */
export * from './input';
export * from './math';
export * from './plan';
export * from './solver';
export * from './tickets';
export * from './arrangement';
