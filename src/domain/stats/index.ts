/**
 * The stats calculators (issue #14): one pure module per dashboard part. Each module's doc
 * comment says what data it needs (and the SQL a service fills it with) and the rules it follows;
 * common.ts holds the shared vocabulary and calendar rules (JST dates, Monday weeks), query.ts the
 * argument validation (typed issues naming the argument; orThrow → BAD_USER_INPUT).
 */
export * from './common';
export * from './query';
export * from './bpi-distribution';
export * from './dj-rank-distribution';
export * from './score-rate-distribution';
export * from './aaa-table';
export * from './bpm-bands';
export * from './total-bpi';
export * from './trend';
export * from './radar';
export * from './activity';
export * from './box-plot';
export * from './arena-trend';
export * from './review-periods';
export * from './review';
export * from './review-lines';
export * from './neighbours';
export * from './ranking';
export * from './tower';
export * from './global-ranking';
export * from './site-summary';
