/**
 * BPI V2 (issue #19 part 2): a distribution-based BPI whose per-chart parameters are fitted from
 * this server's own bests. Model and scale: ./model.ts; fit: ./fit.ts; held-out quality:
 * ./evaluate.ts; a generated population with known parameters: ./generate.ts. ./README.md
 * explains the model and its choices.
 */
export * from './model';
export * from './matrix';
export * from './fit';
export * from './evaluate';
export {
  generatePopulation,
  seededRandom,
  normalSource,
  type GenerateOptions,
  type GeneratedPopulation,
} from './generate';
export { median, robustSd, spearman, huberBeta } from './stats';
