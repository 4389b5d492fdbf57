export * from './users.ts';
export * from './catalogue.ts';
export * from './buying.ts';
export * from './images.ts';
