export * from './enums.ts';
export * from './limits.ts';
export * from './messages.ts';
export * from './schemas.ts';
export * from './web-texts.ts';
export * from './live-events.ts';
export * from './live-event-schemas.ts';
export * from './mail.ts';
