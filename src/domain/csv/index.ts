export * from './types';
export * from './text';
export * from './lamps';
export * from './corrections';
export * from './detect';
export * from './parsers';
export * from './batch-manual';
export * from './official-writer';
