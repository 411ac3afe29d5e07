export * from './catalogue';
export * from './contract-filters';
export * from './engine';
export * from './priorities';
export type * from './types';
