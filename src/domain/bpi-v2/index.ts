/**
 * BPI V2 (issue #19 part 2): a distribution-based BPI whose per-chart parameters are fitted from
 * this server's own bests. Model and scale: ./model.ts. ./README.md explains the model and its choices.
 */
export * from './model';
export { median, robustSd, spearman, huberBeta } from './stats';
