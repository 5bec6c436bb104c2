/**
 * Most tRPC calls one HTTP request may batch. The client's batch link uses the
 * same number (tRPC answers a larger batch with 400); the wizard and the
 * console never issue more than a handful of calls at once.
 */
export const trpcMaxBatchSize = 10;
