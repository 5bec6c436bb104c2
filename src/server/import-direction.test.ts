import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import direction of the server (docs/architecture.md, "Import direction"):
 * - nothing under features/ imports http/ (HTTP routes call features, never
 *   the other way round);
 * - a feature reaches another feature only through its entry points: a
 *   `service.ts` or `*-service.ts`, notifications' `events.ts`, and staff's
 *   `session.ts` / `procedures.ts` (how every channel authenticates staff), and
 *   the storage sweep's seam: its `sweep.ts` (service) and `owners.ts` (the
 *   StorageOwner interface), and each feature's `storage-owner.ts` (the
 *   objects it declares to the sweep, docs/decisions/029);
 * - http/ reaches features through the same entry points (and the shared
 *   features/audit.ts).
 * - under features/, only repository files (`repository.ts`, `*-repository.ts`)
 *   import the database schema: the rules (services) ask their own
 *   repository, and another feature's data comes through that feature's
 *   entry points (docs/decisions/127);
 * Read from the source text: every static `import … from`, `export … from`
 * and dynamic `import('…')` with a relative path.
 */
const serverDir = path.resolve(import.meta.dirname);
const featuresDir = path.join(serverDir, 'features');
const httpDir = path.join(serverDir, 'http');

const entryPoints = (feature: string, file: string): boolean =>
  file === 'service.ts' ||
  file.endsWith('-service.ts') ||
  (feature === 'notifications' && file === 'events.ts') ||
  (feature === 'staff' && (file === 'session.ts' || file === 'procedures.ts')) ||
  (feature === 'storage-sweep' && (file === 'sweep.ts' || file === 'owners.ts')) ||
  file === 'storage-owner.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function importSpecifiers(source: string): string[] {
  return [
    ...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gms),
    ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
}

export function relativeImports(source: string): string[] {
  return importSpecifiers(source).filter((specifier) => specifier.startsWith('.'));
}

/**
 * Services know no transport (docs/decisions/045): under features/, only the
 * transport adapters — `router.ts`, staff's `procedures.ts`, the Socket.IO
 * namespaces' `socket.ts` — import Express, tRPC or Socket.IO (or trpc.ts).
 */
const transportModule = /^(?:express|@trpc\/server|socket\.io)(?:\/|$)|\/trpc\.ts$/;
const transportAdapter = /(?:^|\/)(?:router|procedures|socket)\.ts$/;

function transportLeaks(files: string[]): string[] {
  return files
    .filter((file) => !transportAdapter.test(file.split(path.sep).join('/')))
    .flatMap((file) =>
      importSpecifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => transportModule.test(specifier))
        .map((specifier) => `${path.relative(serverDir, file)} imports ${specifier}`),
    );
}

const schemaModule = path.join(serverDir, 'db', 'schema.ts');
const repositoryFile = /(?:^|\/)(?:[\w-]+-)?repository\.ts$/;
/** The audit log's one writer, shared by every feature (`writeAudit`): the audit table's repository in all but name. */
const sharedRepositories = new Set([path.join(featuresDir, 'audit.ts')]);

/** Files under features/ that import the database schema (type-only too) and are not repositories. */
function schemaOutsideRepositories(files: string[]): string[] {
  return files
    .filter((file) => !repositoryFile.test(file.split(path.sep).join('/')) && !sharedRepositories.has(file))
    .flatMap((file) =>
      relativeImports(readFileSync(file, 'utf8'))
        .filter((specifier) => path.resolve(path.dirname(file), specifier) === schemaModule)
        .map((specifier) => `${path.relative(serverDir, file)} imports ${specifier}: only a repository reads the tables`),
    );
}

/** Which feature a path is in, and the file inside it; null outside features/. */
function featureOf(file: string): { feature: string; rest: string } | null {
  const relative = path.relative(featuresDir, file);
  if (relative.startsWith('..')) return null;
  const [feature, ...rest] = relative.split(path.sep);
  return rest.length === 0 ? { feature: '', rest: feature! } : { feature: feature!, rest: rest.join('/') };
}

function violations(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const from = featureOf(file);
    for (const specifier of relativeImports(readFileSync(file, 'utf8'))) {
      const target = path.resolve(path.dirname(file), specifier);
      const where = `${path.relative(serverDir, file)} imports ${specifier}`;
      if (from && !path.relative(httpDir, target).startsWith('..')) {
        found.push(`${where}: features never import http/`);
        continue;
      }
      const to = featureOf(target);
      if (!to || to.feature === '' || to.feature === from?.feature) continue;
      if (!entryPoints(to.feature, to.rest)) found.push(`${where}: reach ${to.feature} through its service`);
    }
  }
  return found;
}

/**
 * Cycles between features, by their static imports (type-only imports count:
 * they say the same thing about who depends on whom; `import()` does not, it
 * is how a feature defers loading). Each cycle once, as "a → b → a".
 */
function featureCycles(files: string[]): string[] {
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const from = featureOf(file)?.feature;
    if (!from) continue;
    const source = readFileSync(file, 'utf8');
    const statics = [...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gms)].map((m) => m[1]!).filter((s) => s.startsWith('.'));
    for (const specifier of statics) {
      const to = featureOf(path.resolve(path.dirname(file), specifier))?.feature;
      if (to && to !== from) (edges.get(from) ?? edges.set(from, new Set()).get(from)!).add(to);
    }
  }
  const cycles = new Set<string>();
  const walk = (start: string, at: string, trail: string[]) => {
    for (const next of edges.get(at) ?? []) {
      if (next === start) cycles.add([...trail, start].join(' → '));
      else if (!trail.includes(next) && next > start) walk(start, next, [...trail, next]);
    }
  };
  for (const feature of edges.keys()) walk(feature, feature, [feature]);
  return [...cycles].sort();
}

describe('server import direction', () => {
  it('reads static, re-export, type and dynamic imports', () => {
    const source = [
      "import { a } from '../x/service.ts';",
      "import type {\n  B,\n} from '../y/repository.ts';",
      "export { c } from './z.ts';",
      "const d = await import('../../http/uploads.ts');",
      "import express from 'express';",
    ].join('\n');
    expect(relativeImports(source)).toEqual(['../x/service.ts', '../y/repository.ts', './z.ts', '../../http/uploads.ts']);
  });

  it('features never import http/, and reach each other only through their services', () => {
    expect(violations(sourceFiles(featuresDir))).toEqual([]);
  });

  it('only repositories import the database schema', () => {
    expect(schemaOutsideRepositories(sourceFiles(featuresDir))).toEqual([]);
  });

  it('the schema rule knows a repository from a service', () => {
    const named = (file: string) => repositoryFile.test(file);
    expect(['booking/repository.ts', 'identity/kba-repository.ts', 'booking/queue-repository.ts'].every(named)).toBe(true);
    expect(['booking/service.ts', 'act/repository-helpers.ts', 'staff/session.ts', 'notarial-act/not-a-repository.tsx'].some(named)).toBe(false);
  });

  it('services import no transport (Express, tRPC, Socket.IO): only routers, procedure builders and sockets do', () => {
    expect(transportLeaks(sourceFiles(featuresDir))).toEqual([]);
  });

  it('no new cycle between features (booking ↔ notifications is gone: customer links are their own feature)', () => {
    // The storage sweep's seam is two-way by design (each feature declares its objects in
    // storage-owner.ts; the sweep asks them, docs/decisions/029), and staff's invitations
    // name notifications' mailer type. Anything else is a cycle to break, not to list here.
    expect(featureCycles(sourceFiles(featuresDir))).toEqual([
      'documents → storage-sweep → documents',
      'documents → storage-sweep → session → documents',
      // Through the same seam: the session finishes the act (notarial-act), which reads the booking's documents through
      // documents' service, and whose identity check reads documents' type sniffing.
      'documents → storage-sweep → session → notarial-act → documents',
      'documents → storage-sweep → session → notarial-act → identity → documents',
      'notifications → staff → notifications',
      'session → storage-sweep → session',
    ]);
  });

  it('http/ reaches features only through their services', () => {
    expect(violations(sourceFiles(httpDir))).toEqual([]);
  });
});
