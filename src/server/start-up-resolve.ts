/**
 * A shorter path through Node's module resolver for one package, registered by
 * main.ts before the server's modules load.
 *
 * For every file an ES module imports, Node's resolver looks up the format of
 * the file from its package's package.json, and in doing so parses the
 * package's whole "exports" field again (Node 24: the parsed field is not kept
 * between lookups). drizzle-orm's package.json is 179 KB with 447 exports, and
 * the server loads ~450 of its files at start: ~0.3 s of every start went to
 * parsing the same JSON (a CPU profile of a restart; figures in
 * docs/decisions/048-database-endpoints-and-start-up.md).
 *
 * A relative import between drizzle-orm's own files needs none of that: the
 * file is the importing file's neighbour, and drizzle-orm is one package of
 * `"type": "module"` files with no package.json below its root, so its format
 * is `module`. Every other import goes through Node's resolver unchanged.
 */
import { registerHooks } from 'node:module';

const packageFolder = '/node_modules/drizzle-orm/';

export function resolveDrizzleDirectly(): void {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL;
      if (parent?.startsWith('file:') && parent.includes(packageFolder) && /^\.\.?\/.*\.js$/.test(specifier)) {
        const url = new URL(specifier, parent);
        // A path that would leave the package (none does today) takes the long way.
        if (url.pathname.includes(packageFolder)) return { url: url.href, format: 'module', shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
  });
}
