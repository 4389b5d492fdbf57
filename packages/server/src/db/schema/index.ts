export * from './users.ts';
export * from './catalogue.ts';
export * from './buying.ts';
export * from './images.ts';
export * from './rate-limits.ts';
export * from './live-events.ts';
export * from './conversations.ts';
export * from './notifications.ts';
