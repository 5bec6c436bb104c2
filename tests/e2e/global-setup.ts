import type { TestProject } from 'vitest/node';
import { startServer } from '../helpers/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    serverDataDir: string;
  }
}

/** One production server for the journeys (built by `npm run build` beforehand). */
export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('baseUrl', server.url);
  project.provide('serverDataDir', server.dataDir);
  return async () => {
    await server.stop();
  };
}
