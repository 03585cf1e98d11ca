/*
 * Every table of the store, one import for the repositories and for drizzle-kit (drizzle.config.ts).
 * The core tables are in schema.core.ts so that the other parts can reference them (foreign keys)
 * without importing this file back.
 */
export * from './schema.core.ts';
export * from './schema.runner.ts';
export * from './schema.biometrics.ts';
export * from './schema.delivery.ts';
