export * from './catalogue';
export * from './contract-filters';
export * from './engine';
export * from './priorities';
export * from './row-batch';
export type * from './types';
